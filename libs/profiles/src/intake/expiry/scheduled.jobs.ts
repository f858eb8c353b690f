import { scheduledCommandJob } from '@app/shared';
import { ExpireConsentsCommand } from './expire-consents/expire-consents.command';
import { CONSENT_EXPIRY } from '../../profile.job-definitions';

/** The expiry sweep's runs (defined in profile.job-definitions.ts). */
export const ConsentExpiryJob = scheduledCommandJob(
  CONSENT_EXPIRY,
  ({ maxPages }) => new ExpireConsentsCommand(maxPages),
);
