import type { EnvReader } from '@app/shared';

/** The most a stage body may be, whatever the setting (the notes: 28 MB maximum). */
export const BULK_STAGE_MAX_BYTES_CEILING = 28 * 1024 * 1024;

/** The bulk module's settings (README, configuration table). */
export class BulkSettings {
  /** How long an import's access token accepts Stage (and, later, Execute) after Initiate. */
  readonly importTokenTtlMs: number;
  /** The largest Stage request body, in bytes (413 above); at most 28 MB. */
  readonly stageMaxBytes: number;
  /**
   * How long a Stage request may take before it answers 503 (instead of REQUEST_DEADLINE_MS:
   * checking a thousand full profiles takes seconds).
   */
  readonly stageDeadlineMs: number;
  /** Imports (Initiates) an account may begin in a rolling 24 hours; 0: no limit. */
  readonly dailyImportLimit: number;
  /**
   * The lease of the run applying an import (renewed while it works): how long a dead
   * worker's run keeps the import from the next one.
   */
  readonly runLeaseMs: number;
  /** Records of an import accepted at once (those that may touch one profile: in order). */
  readonly applyConcurrency: number;

  constructor(env: EnvReader) {
    this.importTokenTtlMs = env.int('BULK_IMPORT_TOKEN_TTL_MS', 12 * 60 * 60 * 1000, 1000);
    this.stageMaxBytes = env.int('BULK_STAGE_MAX_BYTES', 25 * 1024 * 1024, 1);
    this.stageDeadlineMs = env.int('BULK_STAGE_DEADLINE_MS', 60_000, 1000);
    this.dailyImportLimit = env.int('BULK_IMPORT_DAILY_LIMIT', 100, 0);
    this.runLeaseMs = env.int('BULK_RUN_LEASE_MS', 60_000, 1000);
    this.applyConcurrency = env.int('BULK_APPLY_CONCURRENCY', 16, 1);
    if (this.stageMaxBytes > BULK_STAGE_MAX_BYTES_CEILING) {
      throw new Error(
        `Environment variable BULK_STAGE_MAX_BYTES must be at most ${BULK_STAGE_MAX_BYTES_CEILING} (28 MB), got "${this.stageMaxBytes}"`,
      );
    }
  }
}
