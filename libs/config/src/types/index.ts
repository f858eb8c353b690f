// The public surface of the types area (for libs/config/src/index.ts to re-export).
export { TypesModule } from './types.module';
export { TypesPersistenceModule } from './types-persistence.module';
export { TypeCatalog, type TypeEntry } from './services/type-catalog.service';
export { TYPE_KINDS, isTypeKind, type TypeKind } from './domain/type-kind';
