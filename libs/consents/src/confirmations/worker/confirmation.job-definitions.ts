import { defineJob, defineScheduledJob } from '@app/shared';

/** A confirmation's message to send (its outbox document says whether it still is owed). */
export interface ConfirmationMailPayload {
  clientId: string;
  profileId: number;
  confirmationId: string;
}

export const CONFIRMATION_MAIL = defineJob<ConfirmationMailPayload>({ name: 'confirmation-mail' });

/**
 * Scheduled: outbox documents whose message is due and whose job was lost (a lost Redis,
 * a worker killed mid-send) get a job again.
 */
export const CONFIRMATION_SWEEP = defineScheduledJob({
  name: 'confirmation-sweep',
  interval: {
    env: 'CONFIRMATION_SWEEP_INTERVAL_MS',
    defaultMs: 30_000,
    meaning:
      'interval of the scheduled double opt-in sweep (lost confirmation messages); 0 turns it off',
  },
});

/**
 * Scheduled: pending confirmations past their time to live are recorded Expired and their
 * consent's PendingConfirmation mark is cleared (a queued profile write).
 */
export const CONFIRMATION_EXPIRY = defineScheduledJob({
  name: 'confirmation-expiry',
  interval: {
    env: 'CONFIRMATION_EXPIRY_INTERVAL_MS',
    defaultMs: 60_000,
    meaning:
      'interval of the scheduled double opt-in expiry job (pending confirmations past their time to live); 0 turns it off',
  },
});
