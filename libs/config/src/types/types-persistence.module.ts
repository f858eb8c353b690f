import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
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
    MongooseModule.forFeature([
      { name: StoredTypeEntry.name, schema: StoredTypeEntrySchema },
      { name: TypeDefault.name, schema: TypeDefaultSchema },
    ]),
  ],
  providers,
  exports: providers,
})
export class TypesPersistenceModule {}
