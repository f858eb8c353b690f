import { Body, Controller, Get, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { parsePatchOperations } from '@app/shared';
import { ConfigCreate, ConfigPatch, ConfigRead } from '../../common/config-route.decorators';
import { type Caller, CurrentCaller } from '@app/auth';

import { CreatePicklistsCommand } from '../commands/create-picklists/create-picklists.command';
import { UpdatePicklistCommand } from '../commands/update-picklist/update-picklist.command';
import { EntryIdParam, type ListQuery, ListQueryParam } from '../../common/entry-request';
import { PicklistListDto } from '../dto/picklist.dto';
import { GetPicklistsQuery } from '../queries/get-picklists/get-picklists.query';

const PICKLIST_FIELDS =
  'Picklist fields: Id (read-only), Edited (read-only), Name (1-100, unique per client, ' +
  'case-insensitive), Description (<=256), IsActive (default true), FieldSelectOptions ' +
  '(required, at least one). The option fields are not shown by the public reference; ' +
  'ours are Value (1-256, the value stored on a profile, unique within the list ' +
  'case-insensitively, must not contain "::", the multi-select delimiter), LocalizedNames ' +
  '([{Locale, Name, Description}], at least one), DisplayOrder (int >= 0) and IsActive ' +
  '(default true; an inactive option, or any option of an inactive picklist, is refused ' +
  'as a new custom field value but an already stored value stays valid).';

@ApiTags('Configuration')
@ApiBadRequestResponse({ description: 'Malformed request; the Message names the field and value' })
@ApiNotFoundResponse({ description: 'Unknown client or picklist, or no names for the locale' })
@Controller(':clientId')
export class PicklistsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('Picklists')
  @ConfigRead(
    {
      summary: 'Retrieve picklists',
      description:
        `${PICKLIST_FIELDS} With locale, each option carries only the names selected for the ` +
        'locale (a region falls back to its language and back); 404 when no option of the ' +
        'answer has a name for it. Query names match case-insensitively.',
    },
    PicklistListDto,
  )
  @ApiQuery({ name: 'Id', required: false, type: 'integer', description: '0 (default): all' })
  @ApiQuery({ name: 'locale', required: false, example: 'en-us' })
  list(
    @CurrentCaller() caller: Caller,
    @ListQueryParam() query: ListQuery,
  ): Promise<PicklistListDto> {
    return this.queries.execute(new GetPicklistsQuery(caller.clientId, query.id, query.locale));
  }

  @Post('Picklists')
  @ConfigCreate(
    {
      summary: 'Create picklists',
      description: `${PICKLIST_FIELDS} All entries of the body are created, or none.`,
    },
    PicklistListDto,
    'A name exists already or is given twice in the body',
  )
  create(@CurrentCaller() caller: Caller, @Body() body: PicklistListDto): Promise<PicklistListDto> {
    return this.commands.execute(
      new CreatePicklistsCommand(caller.clientId, caller.userId, body.Picklists),
    );
  }

  @Patch(['Picklist/:Id', 'Picklists/:Id'])
  @ConfigPatch(
    {
      summary: 'Update a picklist with PATCH operations',
      description:
        `${PICKLIST_FIELDS} The operations (add, remove, replace, test) apply to the picklist as ` +
        'GET returns it (without locale); the result is validated like a create. Id and Edited ' +
        'are read-only. Served at /{clientId}/Picklist/{Id} (older route) and /{clientId}/Picklists/{Id}.',
    },
    PicklistListDto,
    'The new name belongs to another picklist',
  )
  @ApiParam({ name: 'Id', type: 'integer', format: 'int32' })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('Id') picklistId: number,
    @Body() body: unknown,
  ): Promise<PicklistListDto> {
    const operations = parsePatchOperations(body);
    return this.commands.execute(
      new UpdatePicklistCommand(caller.clientId, caller.userId, picklistId, operations),
    );
  }
}
