import { Body, Patch, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody } from '@nestjs/swagger';
import { ConfigController, ConfigPatch, ConfigWrite } from '../../common/config-route.decorators';
import {
  FILTER_PATCH_EXAMPLES,
  REQUIRED_CONSENTS_EXAMPLES,
} from '../../common/configuration.examples';
import { type Caller, CurrentCaller } from '@app/auth';
import { EntryIdParam } from '../../common/entry-request';
import { UpdateFilterCommand } from '../commands/update-filter/update-filter.command';
import { FilterListDto, RequiredPreferenceConsentListDto } from '../dto/program.dto';
import { PATCH_RULES } from './docs';
import { RawBody } from './request-params';

export const REQUIRED_CONSENTS_RULES =
  "Replaces the filter's RequiredPreferenceConsents with the list of the body (an empty list clears it). " +
  'Each TypeName must name an active consent type (case-insensitive; stored as the consent type spells it) ' +
  'and appear once; a type the filter already requires is kept as is. When a consent type is deactivated it ' +
  'is removed from every filter; reactivating it does not restore the requirement. Answers 200 with the new list.';

export const FILTER_ID = { name: 'filterId', description: 'Filter id' };

@ConfigController(':clientId/Filters', {
  tag: 'Configuration: programs',
  notFound: 'Unknown filter',
})
export class FiltersController {
  constructor(private readonly commands: CommandBus) {}

  @Patch(':filterId')
  @ConfigPatch({
    summary: 'Update a filter with PATCH operations',
    description: `${PATCH_RULES} Read-only: ID, ProgramID. Filter names are unique within the program (409).`,
    id: FILTER_ID,
    ok: FilterListDto,
    conflict: 'The new name belongs to another filter of the program',
    examples: FILTER_PATCH_EXAMPLES,
  })
  update(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('filterId') filterId: number,
    @RawBody() operations: unknown,
  ): Promise<FilterListDto> {
    return this.commands.execute(
      new UpdateFilterCommand(caller.clientId, caller.userId, filterId, { operations }),
    );
  }

  @Put(':filterId/RequiredPreferenceConsents')
  @ConfigWrite({
    summary: 'Replace the consents a filter requires',
    description: REQUIRED_CONSENTS_RULES,
    id: FILTER_ID,
    ok: RequiredPreferenceConsentListDto,
  })
  @ApiBody({ type: RequiredPreferenceConsentListDto, examples: REQUIRED_CONSENTS_EXAMPLES })
  replaceRequiredConsents(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('filterId') filterId: number,
    @Body() body: RequiredPreferenceConsentListDto,
  ): Promise<RequiredPreferenceConsentListDto> {
    return replaceRequiredConsents(this.commands, caller, filterId, body);
  }
}

/** Shared by the v4 route and the older Config route. */
export async function replaceRequiredConsents(
  commands: CommandBus,
  caller: Caller,
  filterId: number,
  body: RequiredPreferenceConsentListDto,
): Promise<RequiredPreferenceConsentListDto> {
  const { Filters } = await commands.execute(
    new UpdateFilterCommand(caller.clientId, caller.userId, filterId, {
      requiredConsents: body.RequiredPreferenceConsents,
    }),
  );
  return { RequiredPreferenceConsents: Filters[0].RequiredPreferenceConsents ?? [] };
}
