import { type DeclaredFields, defineSettings, type EnvReader } from '@app/shared';
import { EXPORT_PAGE_MAX_ROWS } from './domain/bulk-export';

/** The most a stage body may be, whatever the setting (the notes: 28 MB maximum). */
export const BULK_STAGE_MAX_BYTES_CEILING = 28 * 1024 * 1024;

/** The bulk module's variables (the settings schema: README, configuration table). */
export const BULK_SETTINGS = defineSettings('bulk', [
  {
    name: 'BULK_IMPORT_TOKEN_TTL_MS',
    field: 'importTokenTtlMs',
    type: 'int',
    default: 12 * 60 * 60 * 1000,
    atLeast: 1000,
    meaning: "how long a bulk import's access token is active after Initiate",
  },
  {
    name: 'BULK_STAGE_MAX_BYTES',
    field: 'stageMaxBytes',
    type: 'int',
    default: 25 * 1024 * 1024,
    atLeast: 1,
    max: BULK_STAGE_MAX_BYTES_CEILING,
    meaning: 'the largest body of a bulk import Stage (413 above); at most 28 MB',
  },
  {
    name: 'BULK_STAGE_DEADLINE_MS',
    field: 'stageDeadlineMs',
    type: 'int',
    default: 60_000,
    atLeast: 1000,
    meaning: 'how long a bulk import Stage may take before it answers 503',
  },
  {
    name: 'BULK_IMPORT_DAILY_LIMIT',
    field: 'dailyImportLimit',
    type: 'int',
    default: 100,
    meaning: 'bulk imports a client without its own quota may begin in 24 hours; 0: no limit',
  },
  {
    name: 'BULK_RUN_LEASE_MS',
    field: 'runLeaseMs',
    type: 'int',
    default: 60_000,
    atLeast: 1000,
    meaning: 'the lease of the worker run applying an executed import',
  },
  {
    name: 'BULK_APPLY_CONCURRENCY',
    field: 'applyConcurrency',
    type: 'int',
    default: 16,
    atLeast: 1,
    meaning: 'records of a bulk import the worker accepts at once',
  },
  {
    name: 'BULK_RUN_SLICE_MS',
    field: 'runSliceMs',
    type: 'int',
    default: 5000,
    meaning: 'how long one run job goes on from chunk to chunk before it queues the next',
  },
  {
    name: 'BULK_EXPORT_TTL_MS',
    field: 'exportTtlMs',
    type: 'int',
    default: 24 * 60 * 60 * 1000,
    atLeast: 1000,
    meaning: "how long an ended bulk export's rows are kept",
  },
  {
    name: 'BULK_EXPORT_RECORD_TTL_MS',
    field: 'exportRecordTtlMs',
    type: 'int',
    default: 7 * 24 * 60 * 60 * 1000,
    meaning: "how long an Expired bulk export's record is kept after its rows were removed",
  },
  {
    name: 'BULK_EXPORT_PAGE_ROWS',
    field: 'exportPageRows',
    type: 'int',
    default: EXPORT_PAGE_MAX_ROWS,
    atLeast: 1,
    max: EXPORT_PAGE_MAX_ROWS,
    meaning: 'rows per stored export page (at most 500)',
  },
  {
    name: 'BULK_EXPORT_CALLBACK_TIMEOUT_MS',
    field: 'exportCallbackTimeoutMs',
    type: 'int',
    default: 5000,
    atLeast: 100,
    meaning: "how long one attempt of an export's callback may take",
  },
] as const);

/** The bulk module's settings (README, configuration table). */
export class BulkSettings implements DeclaredFields<typeof BULK_SETTINGS, BulkSettings> {
  /** How long an import's access token accepts Stage (and, later, Execute) after Initiate. */
  declare readonly importTokenTtlMs: number;
  /** The largest Stage request body, in bytes (413 above); at most 28 MB. */
  declare readonly stageMaxBytes: number;
  /**
   * How long a Stage request may take before it answers 503 (instead of REQUEST_DEADLINE_MS:
   * checking a thousand full profiles takes seconds).
   */
  declare readonly stageDeadlineMs: number;
  /**
   * Imports (Initiates) an account may begin in a rolling 24 hours; 0: no limit. A client's
   * own quota (set-client --bulk-imports-per-day) replaces it.
   */
  declare readonly dailyImportLimit: number;
  /**
   * The lease of the run applying an import (renewed while it works): how long a dead
   * worker's run keeps the import from the next one.
   */
  declare readonly runLeaseMs: number;
  /** Records of an import accepted at once (those that may touch one profile: in order). */
  declare readonly applyConcurrency: number;
  /**
   * How long one run job of an import goes on to the next chunk itself before it queues a
   * job for it (a queue hop and a lease between chunks cost more than a chunk's records).
   */
  declare readonly runSliceMs: number;
  /**
   * How long an export's pages are kept once it ended (Complete or Failed; a retrieval with
   * keepAlive=true starts it again): then it is Expired and its pages removed.
   */
  declare readonly exportTtlMs: number;
  /**
   * How long an Expired export's record (its status, without pages) is kept after its pages
   * were purged: 401 for its token meanwhile, then the record goes and the token is unknown
   * (404), so the collection does not grow with every export ever made.
   */
  declare readonly exportRecordTtlMs: number;
  /** Rows per stored export page (at most 500): what one run of the export job writes. */
  declare readonly exportPageRows: number;
  /** How long one attempt of an export's callback may take. */
  declare readonly exportCallbackTimeoutMs: number;

  constructor(env: EnvReader) {
    Object.assign(this, env.fields(BULK_SETTINGS));
  }
}
