import { Module } from '@nestjs/common';
import { ConsentTypesCoreModule, ProgramsPersistenceModule } from '@app/config';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider } from '@app/shared';
import { ConsentSettings } from './consent-settings';
import { ConfirmationsWorkerModule } from './confirmations/confirmations.module';
import { NotifyConsentVersionsHandler } from './consent-versions/commands/notify-consent-versions/notify-consent-versions.handler';
import { PropagateDoNotContactHandler } from './do-not-contact/commands/propagate-do-not-contact/propagate-do-not-contact.handler';
import { DoNotContactPersistenceModule } from './do-not-contact/do-not-contact.module';
import { DoNotContactMarks } from './do-not-contact/services/do-not-contact-marks.service';
import { ConsentVersionNotificationJob, DoNotContactPropagationJob } from './worker/consent.jobs';

/**
 * Do-not-contact marks: the apply extension the worker's profile pipeline runs (an email or
 * phone a write adds that is listed gets its mark) and the propagation job's writes.
 */
@Module({
  imports: [ProfilePortsModule, DoNotContactPersistenceModule, ProgramsPersistenceModule],
  providers: [DoNotContactMarks],
  exports: [DoNotContactMarks],
})
export class DoNotContactMarksModule {}

/**
 * The worker side of consents: new consent versions and consent-type renames reaching the
 * profiles that hold the type, and do-not-contact list changes reaching the profiles that
 * hold the value. Profiles change only through queued system writes (ProfileWriteQueue).
 */
@Module({
  imports: [
    ProfilePortsModule,
    // The config_events outbox and the consent types.
    ConsentTypesCoreModule,
    DoNotContactPersistenceModule,
    DoNotContactMarksModule,
    ConfirmationsWorkerModule,
  ],
  providers: [
    settingsProvider(ConsentSettings),
    NotifyConsentVersionsHandler,
    ConsentVersionNotificationJob,
    PropagateDoNotContactHandler,
    DoNotContactPropagationJob,
  ],
})
export class ConsentsWorkerModule {}
