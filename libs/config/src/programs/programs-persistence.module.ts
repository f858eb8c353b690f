import { Module } from '@nestjs/common';
import { mongooseFeatures } from '@app/shared';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { StoredProgramGroup, StoredProgramGroupSchema } from './domain/program-group.schema';
import { StoredProgram, StoredProgramSchema } from './domain/program.schema';
import { ProgramGroupRepository } from './repositories/program-group.repository';
import { ProgramRepository } from './repositories/program.repository';
import { ProgramCatalog } from './services/program-catalog.service';

const providers = [ProgramRepository, ProgramGroupRepository, ProgramCatalog];

/**
 * The programs collections and ProgramCatalog, without HTTP or CQRS handlers: what a
 * process that only reads programs (the worker's profile validation) imports.
 */
@Module({
  imports: [
    ConfigurationCoreModule,
    mongooseFeatures(
      [StoredProgram, StoredProgramSchema],
      [StoredProgramGroup, StoredProgramGroupSchema],
    ),
  ],
  providers,
  exports: providers,
})
export class ProgramsPersistenceModule {}
