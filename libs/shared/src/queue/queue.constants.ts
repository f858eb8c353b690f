import type { JobOptions } from 'bull';

/**
 * The queues and retry policies: the mechanism only. Each lib defines its own jobs (name,
 * payload, tenant, schedule) with `defineJob` (job-definition.ts), and the apps hand them to
 * QueueModule.
 */
export const JOBS_QUEUE = 'jobs';

/**
 * The weight class of a tenant's job in its fair share (TenantFairQueue): `interactive`
 * (the writes its clients send) or `bulk` (bulk imports and exports, system writes, the
 * sweeper's and healing jobs), which gets a smaller share while both wait.
 */
export type JobLane = 'interactive' | 'bulk';

/** What one run of a scheduled job may be told (tests only; the schedule sends `{}`). */
export interface ScheduledRunPayload {
  /** Stop after this many pages of candidates, as a worker stopped halfway would. */
  maxPages?: number;
}

/** What a scheduled run changed, by what (e.g. `{ profiles: 3, consents: 4 }`). */
export type JobCounts = Record<string, number>;

export const DEFAULT_JOB_OPTIONS: JobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 200 },
  removeOnComplete: true,
  removeOnFail: 1000,
};

/** A scheduled run is not retried: the next run finds whatever this one left. */
export const SCHEDULED_JOB_OPTIONS: JobOptions = {
  attempts: 1,
  removeOnComplete: true,
  removeOnFail: 100,
};

/** Run records kept per scheduled job in `job_runs` (older ones are dropped). */
export const JOB_RUNS_KEPT = 50;
