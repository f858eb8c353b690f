import { type RequestWindow, WaitsForWorker, WriteWindow } from '@app/shared';
import { Body, HttpCode, Put, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ARCHIVE_PREFERENCES_EXAMPLES } from '../dto/archive-preferences.examples';
import { ApiAcceptedResponse, ApiBody, ApiNoContentResponse, ApiOperation } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ArchivePreferencesCommand } from '../commands/archive-preferences/archive-preferences.command';
import { ArchivePreferencesDto } from '../dto/archive-preferences.dto';
import { ApiProfileIdParam, ProfileIdParam, scopeOf } from '@app/profiles';

@TenantController(':clientId/Profile/Preferences', {
  tag: 'Profiles',
  notFound: 'Unknown client or profile',
})
export class PreferenceArchiveController {
  constructor(private readonly commands: CommandBus) {}

  @WaitsForWorker()
  @Put(':profileId/Archive')
  @ApiProfileIdParam()
  @HttpCode(204)
  @ApiAuth('preferences', 'write')
  @ApiOperation({
    summary: 'Archive preferences of a profile',
    description:
      "Archived preferences become inactive: kept and shown in the preference history (IsActive false, LastModifiedDate the time of the request, the reason in the preference attribute $Reason_Code), never returned by retrievals or searches. GlobalDeactivate true archives every preference on the profile and on all its contact elements. Otherwise each item of Emails, PhoneNumbers, Addresses and ProfilePreferences selects preferences, every field it gives narrowing the selection: a type alone selects every element of that type, type and value one element (all its filters), type, value and FilterId one filter, a value alone the element under any type (emails compare case-insensitively, phones by their digits, addresses by AddressType + Address1 + PostalCode). An item's Reason_Code wins over the top-level one. Only preferences of programs your user group may see are archived; preferences already archived are left as they are; a request that selects nothing answers 204 and changes nothing. The request waits for the queued archival up to SYNC_WRITE_TIMEOUT_MS (10 s): 204 when applied, else 202 (the outcome is then in .../Updates). A later PUT or PATCH of the profile that restates an archived preference (same ProgramId, ChannelId and FilterId in the same place) brings it back.",
  })
  @ApiNoContentResponse({ description: 'Archived (or nothing was selected)' })
  @ApiAcceptedResponse({ description: 'Accepted; the archival is still queued' })
  @ApiBody({ type: ArchivePreferencesDto, examples: ARCHIVE_PREFERENCES_EXAMPLES })
  async archive(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: ArchivePreferencesDto,
    @Res({ passthrough: true }) reply: FastifyReply,
    @WriteWindow() window: RequestWindow | null,
  ): Promise<void> {
    const outcome = await this.commands.execute(
      new ArchivePreferencesCommand(
        caller.clientId,
        caller.userId,
        profileId,
        body,
        window,
        scopeOf(caller),
      ),
    );
    reply.status(outcome === 'archived' ? 204 : 202);
  }
}
