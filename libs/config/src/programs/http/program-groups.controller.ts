import { Body, Controller, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import { EntryIdParam, parseIdQuery } from '../../common/entry-request';
import { PatchOperationDto } from '../../common/patch-operation.dto';
import { CreateProgramGroupsCommand } from '../commands/create-program-groups/create-program-groups.command';
import { UpdateProgramGroupCommand } from '../commands/update-program-group/update-program-group.command';
import { ProgramGroupListDto, ProgramGroupTreeListDto } from '../dto/program-group.dto';
import { GetMatchingProgramGroupsQuery } from '../queries/get-matching-program-groups/get-matching-program-groups.query';
import { GetProgramGroupsQuery } from '../queries/get-program-groups/get-program-groups.query';
import { GROUP_MATCHING, PATCH_RULES } from './docs';
import { ApiIdParam, RawBody, RawQuery } from './request-params';

const CRITERIA_QUERY = {
  name: 'criteria',
  required: false,
  style: 'form',
  explode: true,
  description: 'Custom property names, each with an optional value: ?Brand=Acme&Region',
  schema: { type: 'object', additionalProperties: { type: 'string' } },
} as const;

@ApiTags('Configuration: programs')
@ApiBadRequestResponse({ description: 'Malformed request; the Message names the field and value' })
@Controller(':clientId/ProgramGroups')
export class ProgramGroupsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get()
  @ApiAuth('configuration', 'read')
  @ApiOperation({
    summary: 'List program groups',
    description:
      'Groups in id order, active and inactive, each with the ids of its programs (ProgramIds) and nested groups (ProgramGroupIds).',
  })
  @ApiQuery({ name: 'Id', required: false, type: 'integer', description: '0 (default): all' })
  @ApiOkResponse({ type: ProgramGroupListDto })
  @ApiNotFoundResponse({ description: 'Unknown Id' })
  list(@CurrentCaller() caller: Caller, @Query('Id') id?: string): Promise<ProgramGroupListDto> {
    return this.queries.execute(new GetProgramGroupsQuery(caller.clientId, parseIdQuery(id)));
  }

  @Get('IncludeMatching')
  @ApiAuth('configuration', 'read')
  @ApiOperation({
    summary:
      'Program groups matching custom property criteria, with only the nested entries that match',
    description: `Nested groups and programs are kept when they are returned themselves, programs with only their matching filters. ${GROUP_MATCHING}`,
  })
  @ApiQuery(CRITERIA_QUERY)
  @ApiOkResponse({ type: ProgramGroupTreeListDto })
  includeMatching(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: Record<string, unknown>,
  ): Promise<ProgramGroupTreeListDto> {
    return this.queries.execute(
      new GetMatchingProgramGroupsQuery(caller.clientId, query, 'matching'),
    );
  }

  @Get('IncludeAll')
  @ApiAuth('configuration', 'read')
  @ApiOperation({
    summary: 'Program groups matching custom property criteria, with all nested entries',
    description: `The same groups as IncludeMatching, each with all its nested groups, programs and filters. ${GROUP_MATCHING}`,
  })
  @ApiQuery(CRITERIA_QUERY)
  @ApiOkResponse({ type: ProgramGroupTreeListDto })
  includeAll(
    @CurrentCaller() caller: Caller,
    @RawQuery() query: Record<string, unknown>,
  ): Promise<ProgramGroupTreeListDto> {
    return this.queries.execute(new GetMatchingProgramGroupsQuery(caller.clientId, query, 'all'));
  }

  @Post()
  @HttpCode(201)
  @ApiAuth('configuration', 'write')
  @ApiOperation({
    summary: 'Create program groups',
    description:
      'All or nothing. Names are unique per client (case-insensitive; taken or repeated: 409). ProgramIds and ProgramGroupIds must name existing programs and groups (400), each once.',
  })
  @ApiCreatedResponse({ type: ProgramGroupListDto })
  @ApiConflictResponse({ description: 'A name exists or repeats' })
  create(
    @CurrentCaller() caller: Caller,
    @Body() body: ProgramGroupListDto,
  ): Promise<ProgramGroupListDto> {
    return this.commands.execute(
      new CreateProgramGroupsCommand(caller.clientId, caller.userId, body.ProgramGroups),
    );
  }

  @Patch(':programGroupId')
  @ApiIdParam('programGroupId', 'Program group id')
  @ApiAuth('configuration', 'write')
  @ApiOperation({
    summary: 'Update a program group with PATCH operations',
    description: `${PATCH_RULES} ProgramIds and ProgramGroupIds must name existing entries; a group may not contain itself, directly or through nested groups (400 naming the cycle). A rename to a taken name answers 409.`,
  })
  @ApiBody({ type: [PatchOperationDto] })
  @ApiOkResponse({ type: ProgramGroupListDto })
  @ApiNotFoundResponse({ description: 'Unknown program group' })
  @ApiConflictResponse({ description: 'The new name belongs to another program group' })
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
