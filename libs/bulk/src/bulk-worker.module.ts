import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { BulkPersistenceModule } from './bulk-persistence.module';
import { ImportBatchAcceptor } from './commands/run-bulk-import/import-batch-acceptor.service';
import { NewProfileBatches } from './commands/run-bulk-import/new-profile-batches.service';
import { RunBulkImportHandler } from './commands/run-bulk-import/run-bulk-import.handler';
import { BulkImportCleanupJob, RunBulkImportJob } from './worker/bulk-import.jobs';
import { RemoveExpiredImportsHandler } from './commands/remove-expired-imports/remove-expired-imports.handler';
import { NotifyBulkExportHandler } from './commands/notify-bulk-export/notify-bulk-export.handler';
import { PurgeBulkExportHandler } from './commands/purge-bulk-export/purge-bulk-export.handler';
import { RunBulkExportHandler } from './commands/run-bulk-export/run-bulk-export.handler';
import { SweepExpiredExportsHandler } from './commands/sweep-expired-exports/sweep-expired-exports.handler';
import {
  BulkExportExpiryJob,
  NotifyBulkExportJob,
  PurgeBulkExportJob,
  RunBulkExportJob,
} from './worker/bulk-export.jobs';

/**
 * The worker side of bulk imports: applies executed imports chunk by chunk, each record
 * accepted through Profiles' ProfileImportWrites port (docs/bulk.md, "Execute"); builds
 * exports page by page through Profiles' ProfileExportReader port, sends their callbacks
 * and removes their pages (docs/bulk-export.md).
 */
@Module({
  imports: [ProfilePortsModule, BulkPersistenceModule],
  providers: [
    RunBulkImportHandler,
    ImportBatchAcceptor,
    NewProfileBatches,
    RunBulkImportJob,
    RemoveExpiredImportsHandler,
    BulkImportCleanupJob,
    RunBulkExportHandler,
    RunBulkExportJob,
    NotifyBulkExportHandler,
    NotifyBulkExportJob,
    PurgeBulkExportHandler,
    PurgeBulkExportJob,
    SweepExpiredExportsHandler,
    BulkExportExpiryJob,
  ],
})
export class BulkWorkerModule {}
