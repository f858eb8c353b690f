import { Module } from '@nestjs/common';
import { settingsProvider, tenantScopedFeatures } from '@app/shared';
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

/** Provided here and exported to both sides. */
const services = [
  BulkImportRepository,
  ImportAccess,
  ImportRemovals,
  ExportExpiries,
  BulkExportRepository,
  ExportAccess,
];

/** The bulk collections and settings, shared by the api and worker sides. Internal. */
@Module({
  imports: [
    tenantScopedFeatures(
      [BulkImportHint, BulkImportHintSchema],
      [BulkImport, BulkImportSchema],
      [BulkImportChunk, BulkImportChunkSchema],
      [BulkImportExceptionPage, BulkImportExceptionPageSchema],
      [BulkExportHint, BulkExportHintSchema],
      [BulkExport, BulkExportSchema],
      [BulkExportPage, BulkExportPageSchema],
    ),
  ],
  providers: [settingsProvider(BulkSettings), ...services],
  exports: [BulkSettings, ...services],
})
export class BulkPersistenceModule {}
