import { Module } from '@nestjs/common';
import { DoNotContactApiModule } from './do-not-contact/do-not-contact.module';
import { ConsentSearchController } from './http/consent-search.controller';
import { ConsentHistoryController } from './http/consent-history.controller';

/**
 * The consent routes of the Data API: the do-not-contact lists and the profile search by
 * consent-type attributes (a query Profiles runs with the rule Consents registered).
 */
@Module({
  imports: [DoNotContactApiModule],
  controllers: [ConsentHistoryController, ConsentSearchController],
})
export class ConsentsApiModule {}
