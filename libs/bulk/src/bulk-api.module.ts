import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { BulkPersistenceModule } from './bulk-persistence.module';
import { ExecuteBulkImportHandler } from './commands/execute-bulk-import/execute-bulk-import.handler';
import { InitiateBulkImportHandler } from './commands/initiate-bulk-import/initiate-bulk-import.handler';
import { StageBulkImportHandler } from './commands/stage-bulk-import/stage-bulk-import.handler';
import { AsyncImportController } from './http/async-import.controller';
import { BulkImportController } from './http/bulk-import.controller';
import { GetBulkImportExceptionsHandler } from './queries/get-bulk-import-exceptions/get-bulk-import-exceptions.handler';
import { GetBulkImportHandler } from './queries/get-bulk-import/get-bulk-import.handler';

/**
 * The Connectivity (Bulk) API's imports (docs/bulk.md): Initiate, Stage, Execute, Status,
 * Exceptions. Records are checked through Profiles' ProfileWriteChecks port; nothing here
 * reads a profile collection. The worker side is BulkWorkerModule.
 */
@Module({
  imports: [ProfilePortsModule, BulkPersistenceModule],
  controllers: [BulkImportController, AsyncImportController],
  providers: [
    InitiateBulkImportHandler,
    StageBulkImportHandler,
    ExecuteBulkImportHandler,
    GetBulkImportHandler,
    GetBulkImportExceptionsHandler,
  ],
})
export class BulkApiModule {}
