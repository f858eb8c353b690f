import type { CriteriaQuery } from '../domain/custom-property-matching';
import { Body, Get, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ConfigController,
  ConfigCreate,
  ConfigList,
  ConfigPatch,
  ConfigRead,
} from '../../common/config-route.decorators';
import {
  PROGRAM_GROUP_CREATE_EXAMPLES,
  PROGRAM_GROUP_PATCH_EXAMPLES,
} from '../../common/configuration.examples';
import { type Caller, CurrentCaller } from '@app/auth';
import { linkTo } from '@app/shared';
import { EntryIdParam, parseIdQuery } from '../../common/entry-request';
import { CreateProgramGroupsCommand } from '../commands/create-program-groups/create-program-groups.command';
import { UpdateProgramGroupCommand } from '../commands/update-program-group/update-program-group.command';
import { ProgramGroupListDto, ProgramGroupTreeListDto } from '../dto/program-group.dto';
import { GetMatchingProgramGroupsQuery } from '../queries/get-matching-program-groups/get-matching-program-groups.query';
import { GetProgramGroupsQuery } from '../queries/get-program-groups/get-program-groups.query';
import { GROUP_MATCHING, PATCH_RULES } from './docs';
import { ApiCriteriaQuery, RawBody, RawQuery } from './request-params';

const CRITERIA_EXAMPLE = '?Brand=Acme&Region';

@ConfigController(':clientId/ProgramGroups', { tag: 'Configuration: programs' })
export class ProgramGroupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ConfigList({
    summary: 'List program groups',
    description:
      'Groups in id order, active and inactive, each with the ids of its programs (ProgramIds) and nested groups (ProgramGroupIds).',
    ok: ProgramGroupListDto,
    notFound: 'Unknown Id',
    locale: false,
  })
  list(@CurrentCaller() caller: Caller, @Query('Id') id?: string): Promise<ProgramGroupListDto> {
    return this.queries.execute(new GetProgramGroupsQuery(caller.clientId, parseIdQuery(id)));
  }

  @Get('IncludeMatching')
  @ConfigRead({
    summary:
      'Program groups matching custom property criteria, with only the nested entries that match',
    description: `Nested groups and programs are kept when they are returned themselves, programs with only their matching filters. ${GROUP_MATCHING}`,
    ok: ProgramGroupTreeListDto,
  })
  @ApiCriteriaQuery(CRITERIA_EXAMPLE)
  includeMatching(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: CriteriaQuery,
  ): Promise<ProgramGroupTreeListDto> {
    return this.queries.execute(
      new GetMatchingProgramGroupsQuery(caller.clientId, query, 'matching'),
    );
  }

  @Get('IncludeAll')
  @ConfigRead({
    summary: 'Program groups matching custom property criteria, with all nested entries',
    description: `The same groups as IncludeMatching, each with all its nested groups, programs and filters. ${GROUP_MATCHING}`,
    ok: ProgramGroupTreeListDto,
  })
  @ApiCriteriaQuery(CRITERIA_EXAMPLE)
  includeAll(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: CriteriaQuery,
  ): Promise<ProgramGroupTreeListDto> {
    return this.queries.execute(new GetMatchingProgramGroupsQuery(caller.clientId, query, 'all'));
  }

  @Post()
  @ConfigCreate({
    summary: 'Create program groups',
    description:
      'All or nothing. Names are unique per client (case-insensitive; taken or repeated: 409). ProgramIds and ProgramGroupIds must name existing programs and groups (400), each once.',
    body: ProgramGroupListDto,
    examples: PROGRAM_GROUP_CREATE_EXAMPLES,
    created: ProgramGroupListDto,
    conflict: 'A name exists or repeats',
    links: {
      GetProgramGroup: linkTo('ProgramGroupsController_list', {
        Id: '$response.body#/ProgramGroups/0/Id',
      }),
      UpdateProgramGroup: linkTo('ProgramGroupsController_update', {
        programGroupId: '$response.body#/ProgramGroups/0/Id',
      }),
    },
  })
  create(
    @CurrentCaller() caller: Caller,
    @Body() body: ProgramGroupListDto,
  ): Promise<ProgramGroupListDto> {
    return this.commands.execute(
      new CreateProgramGroupsCommand(caller.clientId, caller.userId, body.ProgramGroups),
    );
  }

  @Patch(':programGroupId')
  @ConfigPatch({
    summary: 'Update a program group with PATCH operations',
    description: `${PATCH_RULES} ProgramIds and ProgramGroupIds must name existing entries; a group may not contain itself, directly or through nested groups (400 naming the cycle). A rename to a taken name answers 409.`,
    id: { name: 'programGroupId', description: 'Program group id' },
    ok: ProgramGroupListDto,
    conflict: 'The new name belongs to another program group',
    examples: PROGRAM_GROUP_PATCH_EXAMPLES,
    notFound: 'Unknown program group',
  })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('programGroupId') groupId: number,
    @RawBody() operations: unknown,
  ): Promise<ProgramGroupListDto> {
    return this.commands.execute(
      new UpdateProgramGroupCommand(caller.clientId, caller.userId, groupId, operations),
    );
  }
}
