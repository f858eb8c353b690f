import { Module } from '@nestjs/common';
import { ConfirmationsApiModule } from './confirmations/confirmations.module';
import { DoNotContactApiModule } from './do-not-contact/do-not-contact.module';
import { ConsentSearchController } from './http/consent-search.controller';
import { ConsentHistoryController } from './http/consent-history.controller';
import { ConsentReceiptsModule } from './receipts/receipts.module';

/**
 * The consent routes of the Data API: the do-not-contact lists, the profile search by
 * consent-type attributes (a query Profiles runs with the rule Consents registered) and the
 * consent receipts (receipts/, docs/receipts.md).
 */
@Module({
  imports: [DoNotContactApiModule, ConsentReceiptsModule, ConfirmationsApiModule],
  controllers: [ConsentHistoryController, ConsentSearchController],
})
export class ConsentsApiModule {}
