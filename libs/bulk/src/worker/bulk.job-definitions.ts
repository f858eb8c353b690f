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
 * its last save). Queued in the tenant's bulk class (TenantFairQueue), so an import takes
 * a smaller share of the worker than live writes, and none of other tenants' share.
 */
export const RUN_BULK_IMPORT = defineJob<RunBulkImportPayload>({
  name: 'bulk-import-run',
  tenantOf: ({ clientId }) => clientId,
});

/**
 * Scheduled: remove the staged chunks and exception pages of imports past their kept time,
 * and later their documents (RemoveExpiredImports).
 */
export const BULK_IMPORT_CLEANUP = defineScheduledJob({
  name: 'bulk-import-cleanup',
  interval: {
    env: 'BULK_IMPORT_CLEANUP_INTERVAL_MS',
    defaultMs: 600_000,
    meaning: "interval of the scheduled removal of bulk imports' expired chunks; 0 turns it off",
  },
});

/** What a bulk-export-run job carries: the export and the run it is queued for. */
export interface RunBulkExportPayload {
  clientId: string;
  accessToken: number;
  /** The run number (from 1): a job whose run another job did ends at once. */
  run: number;
}

/**
 * Build the next page of an export, then queue the job again for the run after it (a job
 * is short: a worker dying loses at most the page it was writing, which the next run
 * writes again). Queued in the tenant's bulk class.
 */
export const RUN_BULK_EXPORT = defineJob<RunBulkExportPayload>({
  name: 'bulk-export-run',
  tenantOf: ({ clientId }) => clientId,
});

/** What a bulk-export-callback job carries: the export, and which attempt this is. */
export interface NotifyBulkExportPayload {
  clientId: string;
  accessToken: number;
  attempt: number;
}

/** POST an ended export's status to its CallbackURL (a few attempts, then given up). */
export const NOTIFY_BULK_EXPORT = defineJob<NotifyBulkExportPayload>({
  name: 'bulk-export-callback',
  tenantOf: ({ clientId }) => clientId,
});

/** What a bulk-export-purge job carries. */
export interface PurgeBulkExportPayload {
  clientId: string;
  accessToken: number;
}

/** Remove the pages of a committed (without keepFiles) or expired export, page by page by `_id`. */
export const PURGE_BULK_EXPORT = defineJob<PurgeBulkExportPayload>({
  name: 'bulk-export-purge',
  tenantOf: ({ clientId }) => clientId,
});

/** Every job of the bulk module, for the apps to hand to QueueModule. */
/**
 * Scheduled: expire the exports past their Expires that nobody touched, and purge their
 * pages (SweepExpiredExports).
 */
export const BULK_EXPORT_EXPIRY = defineScheduledJob({
  name: 'bulk-export-expiry',
  interval: {
    env: 'BULK_EXPORT_EXPIRY_INTERVAL_MS',
    defaultMs: 600_000,
    meaning: 'interval of the scheduled expiry of untouched bulk exports; 0 turns it off',
  },
});

export const BULK_JOBS = [
  RUN_BULK_IMPORT,
  BULK_IMPORT_CLEANUP,
  BULK_EXPORT_EXPIRY,
  RUN_BULK_EXPORT,
  NOTIFY_BULK_EXPORT,
  PURGE_BULK_EXPORT,
];
