import { Body, HttpCode, Param, Post, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  ApiBody,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import { ConfigController, ConfigWrite } from '../../common/config-route.decorators';
import {
  CUSTOM_PROPERTIES_EXAMPLES,
  REQUIRED_CONSENTS_EXAMPLES,
} from '../../common/configuration.examples';
import { EntryIdParam } from '../../common/entry-request';
import {
  CUSTOM_PROPERTY_ENTITIES,
  type CustomPropertiesResult,
  SetCustomPropertiesCommand,
} from '../commands/set-custom-properties/set-custom-properties.command';
import { CustomPropertiesChangeDto } from '../dto/custom-properties-request.dto';
import { RequiredPreferenceConsentListDto } from '../dto/program.dto';
import { FILTER_ID, REQUIRED_CONSENTS_RULES, replaceRequiredConsents } from './filters.controller';
import { RawBody } from './request-params';

/** Routes of the older configuration API (`/Config/...`) this area still serves. */
@ConfigController(':clientId/Config', { tag: 'Configuration: programs' })
export class ConfigRoutesController {
  constructor(private readonly commands: CommandBus) {}

  @Put('RequiredPreferenceConsents/:filterId')
  @ConfigWrite({
    summary: 'Replace the consents a filter requires (older route)',
    description: `Same as PUT /{clientId}/Filters/{filterId}/RequiredPreferenceConsents. ${REQUIRED_CONSENTS_RULES}`,
    id: FILTER_ID,
    ok: RequiredPreferenceConsentListDto,
    notFound: 'Unknown filter',
  })
  @ApiBody({ type: RequiredPreferenceConsentListDto, examples: REQUIRED_CONSENTS_EXAMPLES })
  replaceRequiredConsents(
    @CurrentCaller() caller: Caller,
    @EntryIdParam('filterId') filterId: number,
    @Body() body: RequiredPreferenceConsentListDto,
  ): Promise<RequiredPreferenceConsentListDto> {
    return replaceRequiredConsents(this.commands, caller, filterId, body);
  }

  @Post('CustomProperties/:entity')
  @HttpCode(200)
  @ApiParam({
    name: 'entity',
    schema: { type: 'string', enum: [...CUSTOM_PROPERTY_ENTITIES], example: 'Program' },
    description:
      'What the body IDs name: Program (program ids), Filter (filter ids) or ProgramGroup (program group ids)',
  })
  @ApiAuth('configuration', 'write')
  @ApiOperation({
    summary: 'Set custom properties on programs, filters or program groups by id',
    description:
      'The body is a JSON array of { ID, CustomProperties: [{ Key, Value, OverwriteExisting }] } (Link is accepted and ignored). ' +
      'A key the entry does not have is added; an existing key (case-insensitive) gets the new value only with OverwriteExisting true. ' +
      'Every ID must exist (404 naming the missing ones, nothing changed). Answers 200 with the changed entries: ' +
      '{ Programs }, { Filters } or { ProgramGroups }. The entity segment is case-insensitive.',
  })
  @ApiBody({ type: [CustomPropertiesChangeDto], examples: CUSTOM_PROPERTIES_EXAMPLES })
  @ApiOkResponse({
    description: '{ Programs: [...] }, { Filters: [...] } or { ProgramGroups: [...] }',
  })
  @ApiNotFoundResponse({ description: 'Unknown entity kind or id' })
  setCustomProperties(
    @CurrentCaller() caller: Caller,
    @Param('entity') entity: string,
    @RawBody() body: unknown,
  ): Promise<CustomPropertiesResult> {
    return this.commands.execute(
      new SetCustomPropertiesCommand(caller.clientId, caller.userId, entity, body),
    );
  }
}
