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
import {
  BulkExport,
  BulkExportHint,
  BulkExportHintSchema,
  BulkExportPage,
  BulkExportPageSchema,
  BulkExportSchema,
} from './domain/bulk-export.schema';
import { BulkExportRepository } from './repositories/bulk-export.repository';
import { BulkImportRepository } from './repositories/bulk-import.repository';
import { ExportAccess } from './services/export-access.service';
import { ImportAccess } from './services/import-access.service';
import { ImportRemovals } from './services/import-removals.service';
import { ExportExpiries } from './services/export-expiries.service';

/** The bulk collections and settings, shared by the api and worker sides. Internal. */
@Module({
  imports: [
    MongooseModule.forFeature([
      { name: BulkImportHint.name, schema: BulkImportHintSchema },
      { name: BulkImport.name, schema: BulkImportSchema },
      { name: BulkImportChunk.name, schema: BulkImportChunkSchema },
      { name: BulkImportExceptionPage.name, schema: BulkImportExceptionPageSchema },
      { name: BulkExportHint.name, schema: BulkExportHintSchema },
      { name: BulkExport.name, schema: BulkExportSchema },
      { name: BulkExportPage.name, schema: BulkExportPageSchema },
    ]),
  ],
  providers: [
    settingsProvider(BulkSettings),
    BulkImportRepository,
    ImportAccess,
    ImportRemovals,
    ExportExpiries,
    BulkExportRepository,
    ExportAccess,
  ],
  exports: [
    BulkSettings,
    BulkImportRepository,
    ImportAccess,
    ImportRemovals,
    ExportExpiries,
    BulkExportRepository,
    ExportAccess,
  ],
})
export class BulkPersistenceModule {}
