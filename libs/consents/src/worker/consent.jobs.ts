import { scheduledCommandJob } from '@app/shared';
import { NotifyConsentVersionsCommand } from '../consent-versions/commands/notify-consent-versions/notify-consent-versions.command';
import { PropagateDoNotContactCommand } from '../do-not-contact/commands/propagate-do-not-contact/propagate-do-not-contact.command';
import {
  CONSENT_VERSION_NOTIFICATION,
  DO_NOT_CONTACT_PROPAGATION,
} from './consent.job-definitions';

/** The runs of the consents module's scheduled jobs (defined in consent.job-definitions.ts). */
export const ConsentVersionNotificationJob = scheduledCommandJob(
  CONSENT_VERSION_NOTIFICATION,
  ({ maxPages }) => new NotifyConsentVersionsCommand(maxPages),
);

export const DoNotContactPropagationJob = scheduledCommandJob(
  DO_NOT_CONTACT_PROPAGATION,
  ({ maxPages }) => new PropagateDoNotContactCommand(maxPages),
);
