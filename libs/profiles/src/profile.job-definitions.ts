import { defineJob, defineScheduledJob, type JobLane, type TracedPayload } from '@app/shared';

/**
 * What an apply-profile-writes job carries; with tracing on, also the context of the span
 * that queued it (`trace`: the request that accepted the job's first write).
 */
export interface ApplyProfileWritesPayload extends TracedPayload {
  clientId: string;
  profileId: number;
  /** The accepted write that brought the job (absent from the sweeper's jobs). */
  seq?: number;
  /** How many times it found the profile's lease taken and was put back. */
  busy?: number;
  /** Its weight class in the tenant's share; absent: interactive. A job put back keeps it. */
  lane?: JobLane;
  /** Its profile's "job queued" flag, which it clears when it starts (ApplyJobScheduler). */
  token?: string;
}

/** Apply the accepted writes of one profile, in sequence order (a tenant's job: fair). */
export const APPLY_PROFILE_WRITES = defineJob<ApplyProfileWritesPayload>({
  name: 'apply-profile-writes',
  tenantOf: ({ clientId }) => clientId,
});

/**
 * Scheduled: mark what is past its ExpirationDate as expired (the rule modules say what:
 * consents, preferences), through one `expire` write per profile with something due.
 */
export const CONSENT_EXPIRY = defineScheduledJob({
  name: 'consent-expiry',
  interval: {
    env: 'CONSENT_EXPIRY_INTERVAL_MS',
    defaultMs: 3_600_000,
    meaning: 'interval of the scheduled consent and preference expiry job; 0 turns it off',
  },
});

/** Every job of the profiles module, for the apps to hand to QueueModule. */
export const PROFILE_JOBS = [APPLY_PROFILE_WRITES, CONSENT_EXPIRY];
