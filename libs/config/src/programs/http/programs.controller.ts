import type { CriteriaQuery } from '../domain/custom-property-matching';
import { Body, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { linkTo } from '@app/shared';
import {
  ConfigController,
  ConfigCreate,
  ConfigList,
  ConfigPatch,
  ConfigRead,
} from '../../common/config-route.decorators';
import {
  FILTER_CREATE_EXAMPLES,
  PROGRAM_CREATE_EXAMPLES,
  PROGRAM_PATCH_EXAMPLES,
} from '../../common/configuration.examples';
import { type Caller, CurrentCaller } from '@app/auth';
import { EntryIdParam, parseIdQuery } from '../../common/entry-request';
import { LOCALE_QUERY_SCHEMA } from '../../common/localized-field.dto';
import { CreateFiltersCommand } from '../commands/create-filters/create-filters.command';
import { CreateProgramsCommand } from '../commands/create-programs/create-programs.command';
import { UpdateProgramCommand } from '../commands/update-program/update-program.command';
import { PROGRAM_TYPE_INPUTS } from '../domain/program-vocabulary';
import { FilterListDto, ProgramListDto } from '../dto/program.dto';
import { GetMatchingProgramsQuery } from '../queries/get-matching-programs/get-matching-programs.query';
import { GetProgramsQuery } from '../queries/get-programs/get-programs.query';
import { IDS_AS_STRINGS, LOCALE_RULE, PATCH_RULES, PROGRAM_MATCHING } from './docs';
import { ApiCriteriaQuery, RawBody, RawQuery } from './request-params';

const CRITERIA_EXAMPLE = '?Jurisdiction=EU&LifeCycleStage';
const PROGRAM_ID = { name: 'programId', description: 'Program id' };
/** The ids of the first entry of an answer (OpenAPI links). */
const FIRST_PROGRAM_ID = '$response.body#/Programs/0/Id';
const FIRST_FILTER_ID = '$response.body#/Filters/0/ID';

@ConfigController(':clientId/Programs', { tag: 'Configuration: programs' })
export class ProgramsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ConfigList({
    summary: 'List programs with their filters',
    description: `Programs in id order, active and inactive. ${IDS_AS_STRINGS} localeId: ${LOCALE_RULE} \`locale\` is accepted as another name of localeId.`,
    ok: ProgramListDto,
    notFound: 'Unknown Id, or no text tags for the locale',
    locale: false,
  })
  @ApiQuery({ name: 'localeId', required: false, schema: LOCALE_QUERY_SCHEMA })
  @ApiQuery({
    name: 'locale',
    required: false,
    description: 'Alias of localeId',
    schema: LOCALE_QUERY_SCHEMA,
  })
  list(
    @CurrentCaller() caller: Caller,
    @Query('Id') id?: string,
    @Query('localeId') localeId?: string,
    @Query('locale') locale?: string,
  ): Promise<ProgramListDto> {
    const chosen = localeId ?? locale;
    return this.queries.execute(
      new GetProgramsQuery(caller.clientId, {
        id: parseIdQuery(id),
        locale: chosen
          ? { value: chosen, parameter: localeId !== undefined ? 'localeId' : 'locale' }
          : undefined,
      }),
    );
  }

  @Get('IncludeMatching')
  @ConfigRead({
    summary: 'Programs matching custom property criteria, with only their matching filters',
    description: PROGRAM_MATCHING,
    ok: ProgramListDto,
  })
  @ApiCriteriaQuery(CRITERIA_EXAMPLE)
  includeMatching(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: CriteriaQuery,
  ): Promise<ProgramListDto> {
    return this.queries.execute(new GetMatchingProgramsQuery(caller.clientId, query, 'matching'));
  }

  @Get('IncludeAll')
  @ConfigRead({
    summary: 'Programs matching custom property criteria, with all their filters',
    description: `The same programs as IncludeMatching, each with all of its filters. ${PROGRAM_MATCHING}`,
    ok: ProgramListDto,
  })
  @ApiCriteriaQuery(CRITERIA_EXAMPLE)
  includeAll(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: CriteriaQuery,
  ): Promise<ProgramListDto> {
    return this.queries.execute(new GetMatchingProgramsQuery(caller.clientId, query, 'all'));
  }

  @Get('ProgramType/:programTypeId')
  @ConfigRead({
    summary: 'Programs of one program type',
    description: `The type is matched case-insensitively; "DNC" and "Do Not Contact" name "Do Not Contact (DNC)". locale: ${LOCALE_RULE}`,
    ok: ProgramListDto,
    notFound: 'No text tags for the locale',
  })
  @ApiParam({
    name: 'programTypeId',
    enum: PROGRAM_TYPE_INPUTS,
    description:
      'The program type: Transactional, Marketing, Informational, Consent or Do Not Contact (DNC) ("DNC" and "Do Not Contact" name it too)',
  })
  @ApiQuery({ name: 'locale', required: false, schema: LOCALE_QUERY_SCHEMA })
  byType(
    @CurrentCaller() caller: Caller,
    @Param('programTypeId') programType: string,
    @Query('locale') locale?: string,
  ): Promise<ProgramListDto> {
    return this.queries.execute(
      new GetProgramsQuery(caller.clientId, {
        programType,
        locale: locale ? { value: locale, parameter: 'locale' } : undefined,
      }),
    );
  }

  @Post()
  @ConfigCreate({
    summary: 'Create programs with their filters',
    description: `All or nothing. Program names are unique per client and filter names per program (case-insensitive): a name taken or repeated in the body answers 409. A RequiredPreferenceConsents TypeName must name an active consent type (400). ${IDS_AS_STRINGS}`,
    body: ProgramListDto,
    examples: PROGRAM_CREATE_EXAMPLES,
    created: ProgramListDto,
    conflict: 'A program or filter name exists or repeats',
    links: {
      GetProgram: linkTo('ProgramsController_list', { Id: FIRST_PROGRAM_ID }),
      UpdateProgram: linkTo('ProgramsController_update', { programId: FIRST_PROGRAM_ID }),
      AddFilters: linkTo('ProgramsController_addFilters', { programId: FIRST_PROGRAM_ID }),
    },
  })
  create(@CurrentCaller() caller: Caller, @Body() body: ProgramListDto): Promise<ProgramListDto> {
    return this.commands.execute(
      new CreateProgramsCommand(caller.clientId, caller.userId, body.Programs),
    );
  }

  @Patch(':programId')
  @ConfigPatch({
    summary: 'Update a program and its filters with PATCH operations',
    description: `${PATCH_RULES} Filters keep their ID: a filter of the result with the ID of one of the program's filters updates it, one without ID is added (and gets an ID); a filter cannot be removed (deactivate it with IsActive false) or given another program's ID (400). A rename to a taken name answers 409.`,
    id: PROGRAM_ID,
    ok: ProgramListDto,
    conflict: 'The new name belongs to another program or filter',
    examples: PROGRAM_PATCH_EXAMPLES,
    notFound: 'Unknown program',
  })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('programId') programId: number,
    @RawBody() operations: unknown,
  ): Promise<ProgramListDto> {
    return this.commands.execute(
      new UpdateProgramCommand(caller.clientId, caller.userId, programId, operations),
    );
  }

  @Post(':programId/Filters')
  @ConfigCreate({
    summary: 'Add filters to a program',
    description: `All or nothing; filter names are unique within the program (409). ${IDS_AS_STRINGS}`,
    id: PROGRAM_ID,
    body: FilterListDto,
    examples: FILTER_CREATE_EXAMPLES,
    created: FilterListDto,
    conflict: 'A filter name exists in the program or repeats',
    links: {
      UpdateFilter: linkTo('FiltersController_update', { filterId: FIRST_FILTER_ID }),
      ReplaceRequiredConsents: linkTo('FiltersController_replaceRequiredConsents', {
        filterId: FIRST_FILTER_ID,
      }),
    },
    notFound: 'Unknown program',
  })
  addFilters(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('programId') programId: number,
    @Body() body: FilterListDto,
  ): Promise<FilterListDto> {
    return this.commands.execute(
      new CreateFiltersCommand(caller.clientId, caller.userId, programId, body.Filters),
    );
  }
}
