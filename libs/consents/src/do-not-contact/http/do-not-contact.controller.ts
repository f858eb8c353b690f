import { Body, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ADD_DNC_ENTRIES_EXAMPLES, CREATE_DNC_LIST_EXAMPLES } from '../dto/do-not-contact.examples';
import {
  ApiBody,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiIntParam, INT32_MAX, linkTo, LocationHeader, PositiveIntParam } from '@app/shared';
import { AddDncEntriesCommand } from '../commands/add-dnc-entries/add-dnc-entries.command';
import { CreateDncListCommand } from '../commands/create-dnc-list/create-dnc-list.command';
import { RemoveDncEntryCommand } from '../commands/remove-dnc-entry/remove-dnc-entry.command';
import {
  AddDncEntriesDto,
  AddDncEntriesResultDto,
  CreateDncListDto,
  DncEntriesDto,
  DncListDto,
  DncListsDto,
} from '../dto/do-not-contact.dto';
import { GetDncEntriesQuery } from '../queries/get-dnc-entries/get-dnc-entries.query';
import { GetDncListsQuery } from '../queries/get-dnc-lists/get-dnc-lists.query';

/** The `{listId}` of a list's routes (PositiveIntParam). */
const ApiListIdParam = () => ApiIntParam('listId', `The list's ListId (1 to ${INT32_MAX})`);

const PROPAGATION =
  "The change reaches the profiles through the worker's do-not-contact job (a queued write per affected profile); the entry's Propagation says when it has.";

@TenantController(':clientId/DoNotContactLists', {
  tag: 'Do-not-contact lists',
  notFound: 'Unknown client or list',
})
export class DoNotContactController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Post()
  @HttpCode(201)
  // The list has no route of its own: its entries are where it is read.
  @LocationHeader((list) => ({
    location: `DoNotContactLists/${(list as DncListDto).ListId}/Entries`,
  }))
  @ApiAuth('preferences', 'write')
  @ApiOperation({
    summary: 'Create a do-not-contact list of email addresses or phone numbers',
    description:
      'Answers 201 with the list (its ListId names it in the entry routes); Location: its entries.',
  })
  @ApiCreatedResponse({
    type: DncListDto,
    description: 'Created; Location: its entries',
    links: {
      GetEntries: linkTo('DoNotContactController_entries', { listId: '$response.body#/ListId' }),
      AddEntries: linkTo('DoNotContactController_add', { listId: '$response.body#/ListId' }),
    },
  })
  @ApiBody({ type: CreateDncListDto, examples: CREATE_DNC_LIST_EXAMPLES })
  create(@CurrentCaller() caller: Caller, @Body() body: CreateDncListDto): Promise<DncListDto> {
    return this.commands.execute(new CreateDncListCommand(caller.clientId, caller.userId, body));
  }

  @Get()
  @ApiAuth('preferences', 'read')
  @ApiOperation({
    summary: 'The do-not-contact lists of the account',
    description: 'Every list of the account with its ListId, kind and name.',
  })
  @ApiOkResponse({ type: DncListsDto })
  lists(@CurrentCaller() caller: Caller): Promise<DncListsDto> {
    return this.queries.execute(new GetDncListsQuery(caller.clientId));
  }

  @Get(':listId/Entries')
  @ApiAuth('preferences', 'read')
  @ApiOperation({
    summary: "A page of a list's entries, in value order",
    description: 'Removed entries are shown with Status Removed until the value is listed again.',
  })
  @ApiListIdParam()
  @ApiQuery({
    name: 'after',
    required: false,
    description: 'The Next of the previous page',
    schema: { type: 'string' },
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: 'Entries per page, 1 to 1000 (default 100)',
    schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 },
  })
  @ApiOkResponse({ type: DncEntriesDto })
  entries(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('listId') listId: number,
    @Query('after') after?: string,
    @PositiveIntParam('limit', { in: 'query', max: 1000 }) limit?: number,
  ): Promise<DncEntriesDto> {
    return this.queries.execute(
      new GetDncEntriesQuery(caller.clientId, listId, after ?? '', limit ?? 100),
    );
  }

  @Post(':listId/Entries')
  @HttpCode(200)
  @ApiAuth('preferences', 'write')
  @ApiOperation({
    summary: 'Put values on a list',
    description: `Every value must be of the list's kind (one bad value refuses the request; the Message names it). A value already listed is left as it is. Affected contact elements get a preference of the account's Do Not Contact program for their channel, and consents tied to the element's other preferences are revoked. ${PROPAGATION}`,
  })
  @ApiListIdParam()
  @ApiOkResponse({ type: AddDncEntriesResultDto })
  @ApiBody({ type: AddDncEntriesDto, examples: ADD_DNC_ENTRIES_EXAMPLES })
  add(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('listId') listId: number,
    @Body() body: AddDncEntriesDto,
  ): Promise<AddDncEntriesResultDto> {
    return this.commands.execute(
      new AddDncEntriesCommand(caller.clientId, caller.userId, listId, body),
    );
  }

  @Delete(':listId/Entries/:value')
  @HttpCode(204)
  @ApiAuth('preferences', 'write')
  @ApiOperation({
    summary: 'Take a value off a list',
    description: `The do-not-contact preferences its listing caused are archived. ${PROPAGATION}`,
  })
  @ApiListIdParam()
  @ApiParam({
    name: 'value',
    description: 'The email address or phone number, as listed (URL-encoded)',
    schema: { type: 'string', minLength: 1, example: 'no.mail@example.com' },
  })
  @ApiNoContentResponse({ description: 'Removed from the list' })
  async remove(
    @CurrentCaller() caller: Caller,
    @PositiveIntParam('listId') listId: number,
    @Param('value') value: string,
  ): Promise<void> {
    await this.commands.execute(
      new RemoveDncEntryCommand(caller.clientId, caller.userId, listId, value),
    );
  }
}
