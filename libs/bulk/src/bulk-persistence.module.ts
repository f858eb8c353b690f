import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { settingsProvider } from '@app/shared';
import { BulkSettings } from './bulk-settings';
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
import { BulkImportRepository } from './repositories/bulk-import.repository';
import { ImportAccess } from './services/import-access.service';
import { ImportRemovals } from './services/import-removals.service';

/** The bulk collections and settings, shared by the api and worker sides. Internal. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: BulkImportHint.name, schema: BulkImportHintSchema },
      { name: BulkImport.name, schema: BulkImportSchema },
      { name: BulkImportChunk.name, schema: BulkImportChunkSchema },
      { name: BulkImportExceptionPage.name, schema: BulkImportExceptionPageSchema },
    ]),
  ],
  providers: [settingsProvider(BulkSettings), BulkImportRepository, ImportAccess, ImportRemovals],
  exports: [BulkSettings, BulkImportRepository, ImportAccess, ImportRemovals],
})
export class BulkPersistenceModule {}
