import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { BulkPersistenceModule } from './bulk-persistence.module';
import { RunBulkImportHandler } from './commands/run-bulk-import/run-bulk-import.handler';
import { BulkImportCleanupJob, RunBulkImportJob } from './worker/bulk-import.jobs';
import { RemoveExpiredImportsHandler } from './commands/remove-expired-imports/remove-expired-imports.handler';

/**
 * The worker side of bulk imports: applies executed imports chunk by chunk, each record
 * accepted through Profiles' ProfileImportWrites port (docs/bulk.md, "Execute").
 */
@Module({
  imports: [ProfilePortsModule, BulkPersistenceModule],
  providers: [
    RunBulkImportHandler,
    RunBulkImportJob,
    RemoveExpiredImportsHandler,
    BulkImportCleanupJob,
  ],
})
export class BulkWorkerModule {}
