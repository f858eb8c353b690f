import { Module } from '@nestjs/common';
import { tenantScopedFeatures } from '@app/shared';
import {
  StoredTypeEntry,
  StoredTypeEntrySchema,
  TypeDefault,
  TypeDefaultSchema,
} from './domain/type-entry.schema';
import { TypeDefaultRepository } from './repositories/type-default.repository';
import { TypeEntryRepository } from './repositories/type-entry.repository';
import { TypeCatalog } from './services/type-catalog.service';

const providers = [TypeEntryRepository, TypeDefaultRepository, TypeCatalog];

/**
 * The collections of the types area and the read service over them, without HTTP, so a
 * process without the Configuration API (the worker) can validate against types too.
 */
@Module({
  imports: [
    tenantScopedFeatures(
      [StoredTypeEntry, StoredTypeEntrySchema],
      [TypeDefault, TypeDefaultSchema],
    ),
  ],
  providers,
  exports: providers,
})
export class TypesPersistenceModule {}
