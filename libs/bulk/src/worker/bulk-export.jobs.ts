import { commandJob, scheduledCommandJob } from '@app/shared';
import { NotifyBulkExportCommand } from '../commands/notify-bulk-export/notify-bulk-export.command';
import { PurgeBulkExportCommand } from '../commands/purge-bulk-export/purge-bulk-export.command';
import { RunBulkExportCommand } from '../commands/run-bulk-export/run-bulk-export.command';
import { SweepExpiredExportsCommand } from '../commands/sweep-expired-exports/sweep-expired-exports.command';
import {
  BULK_EXPORT_EXPIRY,
  NOTIFY_BULK_EXPORT,
  PURGE_BULK_EXPORT,
  RUN_BULK_EXPORT,
} from './bulk.job-definitions';

/* Job handlers only hand off to commands; the use cases live in the command handlers. */

export const RunBulkExportJob = commandJob(
  RUN_BULK_EXPORT,
  ({ clientId, accessToken, run }) => new RunBulkExportCommand(clientId, accessToken, run),
);

export const NotifyBulkExportJob = commandJob(
  NOTIFY_BULK_EXPORT,
  ({ clientId, accessToken, attempt }) =>
    new NotifyBulkExportCommand(clientId, accessToken, attempt),
);

export const PurgeBulkExportJob = commandJob(
  PURGE_BULK_EXPORT,
  ({ clientId, accessToken }) => new PurgeBulkExportCommand(clientId, accessToken),
);

/** The expiry sweep's runs (defined in bulk.job-definitions.ts). */
export const BulkExportExpiryJob = scheduledCommandJob(
  BULK_EXPORT_EXPIRY,
  ({ maxPages }) => new SweepExpiredExportsCommand(maxPages),
);
