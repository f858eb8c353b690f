import type { JobOptions } from 'bull';

/**
 * Every queue, job name and retry policy of the service, in one place. The payload type
 * of each job is part of its name's contract between the api and the worker.
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

export const JOB_NAMES = {
  /** Apply the accepted writes of one profile, in sequence order. */
  applyProfileWrites: 'apply-profile-writes',
  /** Scheduled: mark consents and preferences past their ExpirationDate as expired. */
  consentExpiry: 'consent-expiry',
  /** Scheduled: flag consents on versions older than a newly published one. */
  consentVersionNotification: 'consent-version-notification',
  /** Scheduled: apply do-not-contact list changes to the profiles holding the values. */
  doNotContactPropagation: 'do-not-contact-propagation',
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

/** What one run of a scheduled job may be told (tests only; the schedule sends `{}`). */
export interface ScheduledRunPayload {
  /** Stop after this many pages of candidates, as a worker stopped halfway would. */
  maxPages?: number;
}

export interface JobPayloads {
  /**
   * `seq`: the accepted write that brought the job (absent from the sweeper's jobs);
   * `busy`: how many times it found the profile's lease taken and was put back; `lane`:
   * the queue it was added to.
   */
  [JOB_NAMES.applyProfileWrites]: {
    clientId: string;
    profileId: number;
    seq?: number;
    busy?: number;
    /** Absent: interactive. A job put back (busy) keeps its lane. */
    lane?: JobLane;
  };
  [JOB_NAMES.consentExpiry]: ScheduledRunPayload;
  [JOB_NAMES.consentVersionNotification]: ScheduledRunPayload;
  [JOB_NAMES.doNotContactPropagation]: ScheduledRunPayload;
}

/** What a scheduled run changed, by what (e.g. `{ profiles: 3, consents: 4 }`). */
export type JobCounts = Record<string, number>;

/**
 * Jobs the worker runs on a schedule, as Bull repeatable jobs: every worker registers
 * them at start and Bull keeps one schedule per repeat key, so each run is one job,
 * processed by one worker. `intervalSetting` names the Settings field (an env variable)
 * holding the interval in ms; 0 turns the schedule off.
 */
export const SCHEDULED_JOBS = [
  { name: JOB_NAMES.consentExpiry, intervalSetting: 'consentExpiryIntervalMs' },
  { name: JOB_NAMES.consentVersionNotification, intervalSetting: 'consentVersionIntervalMs' },
  { name: JOB_NAMES.doNotContactPropagation, intervalSetting: 'dncPropagationIntervalMs' },
] as const;

export type ScheduledJobName = (typeof SCHEDULED_JOBS)[number]['name'];

export function isScheduledJob(name: JobName): name is ScheduledJobName {
  return SCHEDULED_JOBS.some((job) => job.name === name);
}

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
