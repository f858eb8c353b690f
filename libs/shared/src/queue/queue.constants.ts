import type { JobOptions } from 'bull';

/**
 * The queues and retry policies: the mechanism only. Each lib defines its own jobs (name,
 * payload, lanes, schedule) with `defineJob` (job-definition.ts), and the apps hand them to
 * QueueModule.
 */
export const JOBS_QUEUE = 'jobs';
/**
 * The second lane of profile-write jobs: background writes (system writes, the sweeper's
 * and healing jobs) and the writes of a tenant that is accepting more than its burst
 * (TENANT_BURST_PER_SECOND). The worker serves both lanes with its full concurrency each, so
 * a tenant's backlog of thousands of writes never stands in front of another tenant's write.
 */
export const BULK_JOBS_QUEUE = 'jobs-bulk';

/** Which lane a profile-write job takes (see BULK_JOBS_QUEUE). */
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
