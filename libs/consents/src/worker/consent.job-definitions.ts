import { defineScheduledJob } from '@app/shared';
import {
  CONFIRMATION_EXPIRY,
  CONFIRMATION_MAIL,
  CONFIRMATION_SWEEP,
} from '../confirmations/worker/confirmation.job-definitions';

/** Scheduled: the configuration's outbox (new consent versions, consent-type renames). */
export const CONSENT_VERSION_NOTIFICATION = defineScheduledJob({
  name: 'consent-version-notification',
  interval: {
    env: 'CONSENT_VERSION_INTERVAL_MS',
    defaultMs: 60_000,
    meaning: 'interval of the scheduled new-consent-version job; 0 turns it off',
  },
});

/** Scheduled: apply do-not-contact list changes to the profiles holding the values. */
export const DO_NOT_CONTACT_PROPAGATION = defineScheduledJob({
  name: 'do-not-contact-propagation',
  interval: {
    env: 'DNC_PROPAGATION_INTERVAL_MS',
    defaultMs: 60_000,
    meaning: 'interval of the scheduled do-not-contact propagation job; 0 turns it off',
  },
});

/** Every job of the consents module, for the apps to hand to QueueModule. */
export const CONSENT_JOBS = [
  CONSENT_VERSION_NOTIFICATION,
  DO_NOT_CONTACT_PROPAGATION,
  CONFIRMATION_MAIL,
  CONFIRMATION_SWEEP,
  CONFIRMATION_EXPIRY,
];
