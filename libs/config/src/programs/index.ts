// Public surface of the programs area, for other areas and libs (re-export from @app/config).
export { ProgramsModule } from './programs.module';
export { ProgramCatalog, type CatalogFilter } from './services/program-catalog.service';
export {
  CHANNELS,
  PROGRAM_TYPES,
  canonicalChannel,
  canonicalProgramType,
  type Channel,
  type ProgramType,
} from './domain/program-vocabulary';
export { ProgramsPersistenceModule } from './programs-persistence.module';
