import { defineJob, defineScheduledJob } from '@app/shared';

/** What a bulk-import-run job carries: the import to go on with. */
export interface RunBulkImportPayload {
  clientId: string;
  accessToken: number;
  /** The chunk to apply (from 1): a job whose chunk another run did ends at once. */
  chunk: number;
}

/**
 * Apply the next chunk of an executed import, then queue the job again for the chunk after
 * it (a job is short: a worker stopping or dying loses at most one chunk's progress since
 * its last save). Served in the bulk lane, so an import never stands in front of live
 * writes (the interactive lane).
 */
export const RUN_BULK_IMPORT = defineJob<RunBulkImportPayload>({
  name: 'bulk-import-run',
  lanes: 'both',
});

/**
 * Scheduled: remove the staged chunks and exception pages of imports past their kept time,
 * and later their documents (RemoveExpiredImports).
 */
export const BULK_IMPORT_CLEANUP = defineScheduledJob({
  name: 'bulk-import-cleanup',
  interval: { env: 'BULK_IMPORT_CLEANUP_INTERVAL_MS', defaultMs: 600_000 },
});

/** Every job of the bulk module, for the apps to hand to QueueModule. */
export const BULK_JOBS = [RUN_BULK_IMPORT, BULK_IMPORT_CLEANUP];
