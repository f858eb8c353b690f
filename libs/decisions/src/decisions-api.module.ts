import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { DoNotContactPersistenceModule } from '@app/consents';
import { ProfilePortsModule } from '@app/profiles';
import { ContactDecisionController } from './http/contact-decision.controller';
import { GetContactDecisionsHandler } from './queries/get-contact-decisions/get-contact-decisions.handler';
import { QuestionListings } from './queries/get-contact-decisions/question-listings.service';
import { QuestionSubjects } from './queries/get-contact-decisions/question-subjects.service';

/**
 * The contact decisions (docs/decisions.md): "may we contact this person, here, for this,
 * now?", answered from what Profiles (ProfileSnapshots), the configuration
 * (ConfigurationReader) and the do-not-contact lists (DoNotContactListings) expose. It owns
 * no collection and depends on those libs only through their ports.
 */
@Module({
  imports: [ConfigurationReaderModule, ProfilePortsModule, DoNotContactPersistenceModule],
  controllers: [ContactDecisionController],
  providers: [GetContactDecisionsHandler, QuestionSubjects, QuestionListings],
})
export class DecisionsApiModule {}
