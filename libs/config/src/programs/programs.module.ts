import { Module } from '@nestjs/common';
import { ConfigurationCoreModule } from '../configuration-core.module';
import { CreateFiltersHandler } from './commands/create-filters/create-filters.handler';
import { CreateProgramGroupsHandler } from './commands/create-program-groups/create-program-groups.handler';
import { CreateProgramsHandler } from './commands/create-programs/create-programs.handler';
import { SetCustomPropertiesHandler } from './commands/set-custom-properties/set-custom-properties.handler';
import { UpdateFilterHandler } from './commands/update-filter/update-filter.handler';
import { UpdateProgramGroupHandler } from './commands/update-program-group/update-program-group.handler';
import { UpdateProgramHandler } from './commands/update-program/update-program.handler';
import { ConsentTypeDeactivatedHandler } from './events/consent-type-deactivated.handler';
import { ConsentTypeRenamedHandler } from './events/consent-type-renamed.handler';
import { ConfigRoutesController } from './http/config-routes.controller';
import { FiltersController } from './http/filters.controller';
import { ProgramGroupsController } from './http/program-groups.controller';
import { ProgramsController } from './http/programs.controller';
import { GetMatchingProgramGroupsHandler } from './queries/get-matching-program-groups/get-matching-program-groups.handler';
import { GetMatchingProgramsHandler } from './queries/get-matching-programs/get-matching-programs.handler';
import { GetProgramGroupsHandler } from './queries/get-program-groups/get-program-groups.handler';
import { GetProgramsHandler } from './queries/get-programs/get-programs.handler';
import { IsConsentTypeRequiredHandler } from './queries/is-consent-type-required/is-consent-type-required.handler';
import { ProgramsPersistenceModule } from './programs-persistence.module';
import { RequiredConsents } from './services/required-consents.service';

/**
 * Programs, their filters (with required preference consents) and program groups:
 * controllers and use cases. Exports (through ProgramsPersistenceModule) ProgramCatalog, the
 * read service the preference rules and the profile validation use.
 */
@Module({
  imports: [ConfigurationCoreModule, ProgramsPersistenceModule],
  controllers: [
    ProgramsController,
    FiltersController,
    ProgramGroupsController,
    ConfigRoutesController,
  ],
  providers: [
    RequiredConsents,
    CreateProgramsHandler,
    UpdateProgramHandler,
    CreateFiltersHandler,
    UpdateFilterHandler,
    CreateProgramGroupsHandler,
    UpdateProgramGroupHandler,
    SetCustomPropertiesHandler,
    GetProgramsHandler,
    GetMatchingProgramsHandler,
    GetProgramGroupsHandler,
    GetMatchingProgramGroupsHandler,
    IsConsentTypeRequiredHandler,
    ConsentTypeDeactivatedHandler,
    ConsentTypeRenamedHandler,
  ],
  exports: [ProgramsPersistenceModule],
})
export class ProgramsModule {}
