import { scheduledCommandJob } from '@app/shared';
import { ExpireConsentsCommand } from '../commands/expire-consents/expire-consents.command';
import { CONSENT_EXPIRY } from './profile-jobs';

/** The expiry sweep's runs (defined in profile-jobs.ts). */
export const ConsentExpiryJob = scheduledCommandJob(
  CONSENT_EXPIRY,
  ({ maxPages }) => new ExpireConsentsCommand(maxPages),
);
