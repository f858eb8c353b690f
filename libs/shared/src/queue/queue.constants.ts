import type { JobOptions } from 'bull';

/**
 * Every queue, job name and retry policy of the service, in one place. The payload type
 * of each job is part of its name's contract between the api and the worker.
 */
export const JOBS_QUEUE = 'jobs';

export const JOB_NAMES = {
  /** Apply the accepted writes of one profile, in sequence order. */
  applyProfileWrites: 'apply-profile-writes',
} as const;

export type JobName = (typeof JOB_NAMES)[keyof typeof JOB_NAMES];

export interface JobPayloads {
  [JOB_NAMES.applyProfileWrites]: { clientId: string; profileId: number };
}

export const DEFAULT_JOB_OPTIONS: JobOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 200 },
  removeOnComplete: true,
  removeOnFail: 1000,
};
