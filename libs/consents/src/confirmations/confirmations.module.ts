import { Module } from '@nestjs/common';
import { ConfigurationReaderModule } from '@app/config';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider, tenantScopedFeatures } from '@app/shared';
import { ConfirmConsentHandler } from './commands/confirm-consent/confirm-consent.handler';
import { ResendConfirmationHandler } from './commands/resend-confirmation/resend-confirmation.handler';
import { ConfirmationMailSettings } from './confirmation-settings';
import {
  ConfirmationLinkKeyDoc,
  ConfirmationLinkKeyDocSchema,
} from './domain/confirmation-key.schema';
import {
  ConfirmationListSchema,
  ConfirmationOutboxDoc,
  ConfirmationOutboxSchema,
  ConfirmationSchema,
  StoredConfirmation,
  StoredConfirmationList,
} from './domain/confirmation.schema';
import { ConfirmationPageController } from './http/confirmation-page.controller';
import { ConfirmationsController } from './http/confirmations.controller';
import { GetConfirmationQuestionHandler } from './queries/get-confirmation-question/get-confirmation-question.handler';
import { ListConfirmationsHandler } from './queries/list-confirmations/list-confirmations.handler';
import { ConfirmationRepository } from './repositories/confirmation.repository';
import { ConfirmationLinkKeyRepository } from './repositories/confirmation-link-key.repository';
import { ConfirmationLinkKeys } from './services/confirmation-link-keys.service';
import { ConfirmationLinks } from './services/confirmation-links.service';
import { ConfirmationMessages } from './services/confirmation-messages.service';
import { ConfirmationExpiryIndex } from './services/confirmation-expiry-index.service';
import { ConfirmationRequests } from './services/confirmation-requests.service';
import { ConfirmationResendLimit } from './services/confirmation-resend-limit.service';
import { MailTransport } from './services/mail-transport.service';
import { ConfirmationExpiryJob } from './worker/confirmation-expiry.job';
import { ConfirmationSweepJob } from './worker/confirmation-sweep.job';
import { SendConfirmationMailJob } from './worker/send-confirmation-mail.job';

const shared = [
  settingsProvider(ConfirmationMailSettings),
  ConfirmationRepository,
  ConfirmationLinkKeyRepository,
  ConfirmationLinkKeys,
  ConfirmationMessages,
  ConfirmationExpiryIndex,
];

/** The confirmations' collections, settings, link keys and messages (api and worker). */
@Module({
  imports: [
    ConfigurationReaderModule,
    tenantScopedFeatures(
      [StoredConfirmation, ConfirmationSchema],
      [StoredConfirmationList, ConfirmationListSchema],
      [ConfirmationOutboxDoc, ConfirmationOutboxSchema],
      [ConfirmationLinkKeyDoc, ConfirmationLinkKeyDocSchema],
    ),
  ],
  providers: shared,
  exports: [...shared, ConfigurationReaderModule],
})
export class ConfirmationsPersistenceModule {}

/** The apply extension (worker): held grants get their confirmation, outbox and mail job. */
@Module({
  imports: [ConfirmationsPersistenceModule],
  providers: [ConfirmationRequests],
  exports: [ConfirmationRequests],
})
export class ConfirmationRequestsModule {}

/** The api's routes: a profile's confirmations, and the person's confirmation page. */
@Module({
  imports: [ConfirmationsPersistenceModule, ProfilePortsModule],
  controllers: [ConfirmationsController, ConfirmationPageController],
  providers: [
    ConfirmationLinks,
    ListConfirmationsHandler,
    GetConfirmationQuestionHandler,
    ConfirmConsentHandler,
    ConfirmationResendLimit,
    ResendConfirmationHandler,
  ],
})
export class ConfirmationsApiModule {}

/** The worker's jobs: sending from the outbox, its sweep, and the expiry of pending ones. */
@Module({
  imports: [ConfirmationsPersistenceModule, ProfilePortsModule],
  providers: [MailTransport, SendConfirmationMailJob, ConfirmationSweepJob, ConfirmationExpiryJob],
})
export class ConfirmationsWorkerModule {}
