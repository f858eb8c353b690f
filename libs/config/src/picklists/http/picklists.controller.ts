import { Body, Get, Patch, Post } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { type CheckedPatchOperation, linkTo, PatchOperationsPipe } from '@app/shared';
import {
  ConfigController,
  ConfigCreate,
  ConfigList,
  ConfigPatch,
} from '../../common/config-route.decorators';
import { PICKLIST_EXAMPLES, PICKLIST_PATCH_EXAMPLES } from '../../common/configuration.examples';
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

@ConfigController(':clientId', {
  notFound: 'Unknown client or picklist, or no names for the locale',
})
export class PicklistsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('Picklists')
  @ConfigList({
    summary: 'Retrieve picklists',
    description:
      `${PICKLIST_FIELDS} With locale, each option carries only the names selected for the ` +
      'locale (a region falls back to its language and back); 404 when no option of the ' +
      'answer has a name for it. Query names match case-insensitively.',
    ok: PicklistListDto,
  })
  list(
    @CurrentCaller() caller: Caller,
    @ListQueryParam() query: ListQuery,
  ): Promise<PicklistListDto> {
    return this.queries.execute(new GetPicklistsQuery(caller.clientId, query.id, query.locale));
  }

  @Post('Picklists')
  @ConfigCreate({
    summary: 'Create picklists',
    description: `${PICKLIST_FIELDS} All entries of the body are created, or none.`,
    body: PicklistListDto,
    examples: PICKLIST_EXAMPLES,
    created: PicklistListDto,
    links: {
      GetPicklist: linkTo('PicklistsController_list', { Id: '$response.body#/Picklists/0/Id' }),
      UpdatePicklist: linkTo('PicklistsController_update[1]', {
        Id: '$response.body#/Picklists/0/Id',
      }),
    },
  })
  create(@CurrentCaller() caller: Caller, @Body() body: PicklistListDto): Promise<PicklistListDto> {
    return this.commands.execute(
      new CreatePicklistsCommand(caller.clientId, caller.userId, body.Picklists),
    );
  }

  @Patch(['Picklist/:Id', 'Picklists/:Id'])
  @ConfigPatch({
    summary: 'Update a picklist with PATCH operations',
    description:
      `${PICKLIST_FIELDS} The operations (add, remove, replace, test) apply to the picklist as ` +
      'GET returns it (without locale); the result is validated like a create. Id and Edited ' +
      'are read-only. Served at /{clientId}/Picklist/{Id} (older route) and /{clientId}/Picklists/{Id}.',
    id: 'Id',
    ok: PicklistListDto,
    conflict: 'The new name belongs to another picklist',
    examples: PICKLIST_PATCH_EXAMPLES,
  })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('Id') picklistId: number,
    @Body(PatchOperationsPipe) operations: CheckedPatchOperation[],
  ): Promise<PicklistListDto> {
    return this.commands.execute(
      new UpdatePicklistCommand(caller.clientId, caller.userId, picklistId, operations),
    );
  }
}
