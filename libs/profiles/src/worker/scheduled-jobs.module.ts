import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ConsentTypesModule } from '@app/config';
import { DoNotContactPersistenceModule } from '@app/consents';
import { ExpireConsentsHandler } from '../commands/expire-consents/expire-consents.handler';
import { NotifyConsentVersionsHandler } from '../commands/notify-consent-versions/notify-consent-versions.handler';
import { PropagateDoNotContactHandler } from '../commands/propagate-do-not-contact/propagate-do-not-contact.handler';
import { Profile, ProfileSchema } from '../domain/profile.schema';
import { ProfilesPersistenceModule } from '../profiles-persistence.module';
import { DoNotContactMarksModule } from './do-not-contact-marks.module';
import { ExpiryCandidates } from '../repositories/expiry-candidates.repository';
import {
  ConsentExpiryJob,
  ConsentVersionNotificationJob,
  DoNotContactPropagationJob,
} from './scheduled.jobs';

/**
 * The worker's scheduled jobs over profiles: consent and preference expiry, new consent
 * versions, do-not-contact propagation. They change profiles only through queued writes (ProfileWriteIntake).
 */
@Module({
  imports: [
    ProfilesPersistenceModule,
    // The config_events outbox and the consent types (already loaded by the reader).
    ConsentTypesModule,
    // Do-not-contact list changes to propagate, and the writes that mark profiles.
    DoNotContactPersistenceModule,
    DoNotContactMarksModule,
    // The same model ProfilesPersistenceModule registers, for the cross-client query.
    MongooseModule.forFeature([{ name: Profile.name, schema: ProfileSchema }]),
  ],
  providers: [
    ExpiryCandidates,
    ExpireConsentsHandler,
    NotifyConsentVersionsHandler,
    ConsentExpiryJob,
    ConsentVersionNotificationJob,
    PropagateDoNotContactHandler,
    DoNotContactPropagationJob,
  ],
})
export class ScheduledJobsModule {}
