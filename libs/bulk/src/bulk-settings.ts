import type { EnvReader } from '@app/shared';
import { EXPORT_PAGE_MAX_ROWS } from './domain/bulk-export';

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
  /**
   * How long one run job of an import goes on to the next chunk itself before it queues a
   * job for it (a queue hop and a lease between chunks cost more than a chunk's records).
   */
  readonly runSliceMs: number;
  /**
   * How long an export's pages are kept once it ended (Complete or Failed; a retrieval with
   * keepAlive=true starts it again): then it is Expired and its pages removed.
   */
  readonly exportTtlMs: number;
  /**
   * How long an Expired export's record (its status, without pages) is kept after its pages
   * were purged: 401 for its token meanwhile, then the record goes and the token is unknown
   * (404), so the collection does not grow with every export ever made.
   */
  readonly exportRecordTtlMs: number;
  /** Rows per stored export page (at most 500): what one run of the export job writes. */
  readonly exportPageRows: number;
  /** How long one attempt of an export's callback may take. */
  readonly exportCallbackTimeoutMs: number;

  constructor(env: EnvReader) {
    this.importTokenTtlMs = env.int('BULK_IMPORT_TOKEN_TTL_MS', 12 * 60 * 60 * 1000, 1000);
    this.stageMaxBytes = env.int('BULK_STAGE_MAX_BYTES', 25 * 1024 * 1024, 1);
    this.stageDeadlineMs = env.int('BULK_STAGE_DEADLINE_MS', 60_000, 1000);
    this.dailyImportLimit = env.int('BULK_IMPORT_DAILY_LIMIT', 100, 0);
    this.runLeaseMs = env.int('BULK_RUN_LEASE_MS', 60_000, 1000);
    this.applyConcurrency = env.int('BULK_APPLY_CONCURRENCY', 16, 1);
    this.runSliceMs = env.int('BULK_RUN_SLICE_MS', 5000, 0);
    this.exportTtlMs = env.int('BULK_EXPORT_TTL_MS', 24 * 60 * 60 * 1000, 1000);
    this.exportRecordTtlMs = env.int('BULK_EXPORT_RECORD_TTL_MS', 7 * 24 * 60 * 60 * 1000, 0);
    this.exportPageRows = env.int('BULK_EXPORT_PAGE_ROWS', EXPORT_PAGE_MAX_ROWS, 1);
    this.exportCallbackTimeoutMs = env.int('BULK_EXPORT_CALLBACK_TIMEOUT_MS', 5000, 100);
    if (this.exportPageRows > EXPORT_PAGE_MAX_ROWS) {
      throw new Error(
        `Environment variable BULK_EXPORT_PAGE_ROWS must be at most ${EXPORT_PAGE_MAX_ROWS}, got "${this.exportPageRows}"`,
      );
    }
    if (this.stageMaxBytes > BULK_STAGE_MAX_BYTES_CEILING) {
      throw new Error(
        `Environment variable BULK_STAGE_MAX_BYTES must be at most ${BULK_STAGE_MAX_BYTES_CEILING} (28 MB), got "${this.stageMaxBytes}"`,
      );
    }
  }
}
