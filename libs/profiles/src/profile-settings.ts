import type { EnvReader } from '@app/shared';

/** The profiles module's settings (README, configuration table). */
export class ProfileSettings {
  /** Writes per second one api process accepts for a tenant before they take the bulk lane. */
  readonly tenantBurstPerSecond: number;
  /** How often the worker looks for accepted writes that no job is carrying. */
  readonly sweepIntervalMs: number;
  /** A pending write older than this is re-enqueued by the sweeper. */
  readonly staleWriteMs: number;
  /** Attempts before a write that keeps failing with an unexpected error is marked failed. */
  readonly maxWriteAttempts: number;
  /** Records of applied writes kept per profile (GET .../Updates); older ones are deleted. */
  readonly writeRecordsKept: number;
  /** Profiles the expiry job reads per page. */
  readonly scheduledJobBatchSize: number;
  /** Candidates a user's search may read from the key index before it is a 403. */
  readonly searchCandidateLimit: number;
  /**
   * Mixed into each client's stored erasure secret for the hashes of erased identifiers
   * (docs/data-subject.md); unset: the stored secret alone. Changing it makes earlier
   * tombstones' hashes unmatchable.
   */
  readonly erasureHashPepper: string | undefined;

  constructor(env: EnvReader) {
    this.tenantBurstPerSecond = env.int('TENANT_BURST_PER_SECOND', 50, 1);
    this.sweepIntervalMs = env.int('SWEEP_INTERVAL_MS', 30000);
    this.staleWriteMs = env.int('STALE_WRITE_MS', 60000);
    this.maxWriteAttempts = env.int('MAX_WRITE_ATTEMPTS', 5);
    this.writeRecordsKept = env.int('WRITE_RECORDS_KEPT', 20, 1);
    this.scheduledJobBatchSize = env.int('SCHEDULED_JOB_BATCH_SIZE', 200, 1);
    this.searchCandidateLimit = env.int('SEARCH_CANDIDATE_LIMIT', 5000, 1);
    this.erasureHashPepper = env.optional('ERASURE_HASH_PEPPER');
  }
}
