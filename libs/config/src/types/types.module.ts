import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { CreateTypesHandler } from './commands/create-types/create-types.handler';
import { PatchTypeHandler } from './commands/patch-type/patch-type.handler';
import { TYPES_CONTROLLERS } from './http/types.controller';
import { ListTypesHandler } from './queries/list-types/list-types.handler';
import { TypesPersistenceModule } from './types-persistence.module';

/**
 * Types: address, alternate id, customer, group, email and phone types (controllers, use
 * cases and repositories). Exports TypesPersistenceModule, hence TypeCatalog, the read
 * service other modules use.
 */
@Module({
  imports: [ConfigurationCoreModule, TypesPersistenceModule],
  controllers: TYPES_CONTROLLERS,
  providers: [ListTypesHandler, CreateTypesHandler, PatchTypeHandler],
  exports: [TypesPersistenceModule],
})
export class TypesModule {}
