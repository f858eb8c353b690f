import { commandJob, scheduledCommandJob } from '@app/shared';
import { RemoveExpiredImportsCommand } from '../commands/remove-expired-imports/remove-expired-imports.command';
import { RunBulkImportCommand } from '../commands/run-bulk-import/run-bulk-import.command';
import { BULK_IMPORT_CLEANUP, RUN_BULK_IMPORT } from './bulk.job-definitions';

/* Job handlers only hand off to commands; the use case lives in RunBulkImportHandler. */

export const RunBulkImportJob = commandJob(
  RUN_BULK_IMPORT,
  ({ clientId, accessToken, chunk }) => new RunBulkImportCommand(clientId, accessToken, chunk),
);

/** The cleanup's runs (defined in bulk.job-definitions.ts). */
export const BulkImportCleanupJob = scheduledCommandJob(
  BULK_IMPORT_CLEANUP,
  ({ maxPages }) => new RemoveExpiredImportsCommand(maxPages),
);
