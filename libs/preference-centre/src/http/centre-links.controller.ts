import { Body, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBody, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CENTRE_LINK_EXAMPLES } from '../dto/centre-link.examples';
import type { FastifyRequest } from 'fastify';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiProfileIdParam, ProfileIdParam } from '@app/profiles';
import { CreateCentreLinkCommand } from '../commands/create-centre-link/create-centre-link.command';
import { CentreLinkDto, CreateCentreLinkDto } from '../dto/centre-link.dto';

@TenantController(':clientId/Profile', {
  tag: 'Preference centre',
  notFound: 'Unknown client or profile',
})
export class CentreLinksController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':profileId/PreferenceCentreLinks')
  @HttpCode(200)
  @ApiProfileIdParam()
  @ApiAuth('profiles', 'write')
  @ApiOperation({
    summary: "Signed links to a profile's preference centre and one-click unsubscribe",
    description:
      "Answers the page link to send to the person (GET .../PreferenceCentre, no API credential: the signature is the credential) and the RFC 8058 one-click unsubscribe link with the List-Unsubscribe and List-Unsubscribe-Post header values to put in an email. Each link carries the profile (p), its expiry in Unix seconds (e), for the unsubscribe link its scope (u: all, a program, or a program on a channel) and an HMAC-SHA-256 signature (s) over client, profile, expiry and purpose with the client's key (PREFERENCE_CENTRE_SECRET-derived, or a random key kept in the engine, made with the client's first link). Links expire after ExpiresInDays (default PREFERENCE_CENTRE_LINK_DAYS, 30) and cannot be revoked one by one (rotating the key revokes all of the client's links). Send {} for the defaults. Nothing is stored per link. The page's writes are recorded under the user PreferenceCentre, with no user-group scope: the person manages every program the page shows. docs/preference-centre.md.",
  })
  @ApiBody({ type: CreateCentreLinkDto, examples: CENTRE_LINK_EXAMPLES })
  @ApiOkResponse({ type: CentreLinkDto })
  create(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Body() body: CreateCentreLinkDto,
    @Req() request: FastifyRequest,
  ): Promise<CentreLinkDto> {
    const route = request.routeOptions.url ?? '';
    const prefix = route.slice(0, Math.max(0, route.indexOf('/:clientId')));
    return this.commands.execute(
      new CreateCentreLinkCommand(
        caller.clientId,
        profileId,
        body,
        `${request.protocol}://${request.host}`,
        prefix,
      ),
    );
  }
}
