import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { BulkPersistenceModule } from './bulk-persistence.module';
import { RunBulkImportHandler } from './commands/run-bulk-import/run-bulk-import.handler';
import { RunBulkImportJob } from './worker/bulk-import.jobs';

/**
 * The worker side of bulk imports: applies executed imports chunk by chunk, each record
 * accepted through Profiles' ProfileImportWrites port (docs/bulk.md, "Execute").
 */
@Module({
  imports: [ProfilePortsModule, BulkPersistenceModule],
  providers: [RunBulkImportHandler, RunBulkImportJob],
})
export class BulkWorkerModule {}
