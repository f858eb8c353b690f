import { Module } from '@nestjs/common';
import { ProfilePortsModule } from '@app/profiles';
import { BulkPersistenceModule } from './bulk-persistence.module';
import { ExecuteBulkImportHandler } from './commands/execute-bulk-import/execute-bulk-import.handler';
import { InitiateBulkImportHandler } from './commands/initiate-bulk-import/initiate-bulk-import.handler';
import { StageBulkImportHandler } from './commands/stage-bulk-import/stage-bulk-import.handler';
import { AsyncImportController } from './http/async-import.controller';
import { BulkImportController } from './http/bulk-import.controller';
import { BulkExportController } from './http/bulk-export.controller';
import { AsyncExportController, OlderExportController } from './http/older-export.controller';
import { CommitBulkExportHandler } from './commands/commit-bulk-export/commit-bulk-export.handler';
import { InitiateBulkExportHandler } from './commands/initiate-bulk-export/initiate-bulk-export.handler';
import { RetrieveBulkExportHandler } from './commands/retrieve-bulk-export/retrieve-bulk-export.handler';
import { StreamBulkExportHandler } from './commands/stream-bulk-export/stream-bulk-export.handler';
import { GetBulkExportHandler } from './queries/get-bulk-export/get-bulk-export.handler';
import { GetBulkImportExceptionsHandler } from './queries/get-bulk-import-exceptions/get-bulk-import-exceptions.handler';
import { GetBulkImportHandler } from './queries/get-bulk-import/get-bulk-import.handler';
import { BulkImportQuotaMeter } from './services/bulk-import-quota.meter';
import { StageLease } from './services/stage-lease.service';

/**
 * The Connectivity (Bulk) API's imports (docs/bulk.md): Initiate, Stage, Execute, Status,
 * Exceptions; and exports (docs/bulk-export.md): Initiate, Status, Rows, Stream, Commit and
 * the older routes; profiles are read only by the worker, through ProfileExportReader. Records are checked through Profiles' ProfileWriteChecks port; nothing here
 * reads a profile collection. The worker side is BulkWorkerModule.
 */
@Module({
  imports: [ProfilePortsModule, BulkPersistenceModule],
  controllers: [
    BulkImportController,
    AsyncImportController,
    BulkExportController,
    OlderExportController,
    AsyncExportController,
  ],
  providers: [
    InitiateBulkImportHandler,
    StageBulkImportHandler,
    ExecuteBulkImportHandler,
    GetBulkImportHandler,
    GetBulkImportExceptionsHandler,
    InitiateBulkExportHandler,
    GetBulkExportHandler,
    RetrieveBulkExportHandler,
    StreamBulkExportHandler,
    CommitBulkExportHandler,
    BulkImportQuotaMeter,
    StageLease,
  ],
})
export class BulkApiModule {}
