import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { ProfilePortsModule } from '@app/profiles';
import { settingsProvider } from '@app/shared';
import { BulkSettings } from './bulk-settings';
import { InitiateBulkImportHandler } from './commands/initiate-bulk-import/initiate-bulk-import.handler';
import { StageBulkImportHandler } from './commands/stage-bulk-import/stage-bulk-import.handler';
import {
  BulkImport,
  BulkImportChunk,
  BulkImportChunkSchema,
  BulkImportExceptionPage,
  BulkImportExceptionPageSchema,
  BulkImportHint,
  BulkImportHintSchema,
  BulkImportSchema,
} from './domain/bulk-import.schema';
import { BulkImportController } from './http/bulk-import.controller';
import { GetBulkImportExceptionsHandler } from './queries/get-bulk-import-exceptions/get-bulk-import-exceptions.handler';
import { GetBulkImportHandler } from './queries/get-bulk-import/get-bulk-import.handler';
import { BulkImportRepository } from './repositories/bulk-import.repository';
import { ImportAccess } from './services/import-access.service';

/**
 * The Connectivity (Bulk) API's imports, first slice: Initiate, Stage, Status, Exceptions
 * (docs/bulk.md). Records are checked through Profiles' ProfileWriteChecks port; nothing
 * here reads a profile collection.
 */
@Module({
  imports: [
    ProfilePortsModule,
    MongooseModule.forFeature([
      { name: BulkImportHint.name, schema: BulkImportHintSchema },
      { name: BulkImport.name, schema: BulkImportSchema },
      { name: BulkImportChunk.name, schema: BulkImportChunkSchema },
      { name: BulkImportExceptionPage.name, schema: BulkImportExceptionPageSchema },
    ]),
  ],
  controllers: [BulkImportController],
  providers: [
    settingsProvider(BulkSettings),
    BulkImportRepository,
    ImportAccess,
    InitiateBulkImportHandler,
    StageBulkImportHandler,
    GetBulkImportHandler,
    GetBulkImportExceptionsHandler,
  ],
})
export class BulkApiModule {}
