import { Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
} from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller, TenantController } from '@app/auth';
import { ApiProfileIdParam, ProfileIdParam, scopeOf } from '@app/profiles';
import { Clock, InvalidInputError, PositiveIntParam } from '@app/shared';
import { EVENT_TYPE_NAMES } from '../domain/event-types';
import { GetProfileEventsQuery } from './get-profile-events.query';
import { ProfileEventsDto } from './profile-event.dto';
import {
  MAX_EVENT_HISTORY_DAYS,
  PROFILE_EVENTS_LIMIT_DEFAULT,
  PROFILE_EVENTS_LIMIT_MAX,
  profileEventsRequest,
} from './profile-events-window';

/** Retrieval of a profile's events by profile id (docs/events.md, "Retrieval by profile"). */
@TenantController(':clientId/Profile', { tag: 'Events', badRequest: false })
export class ProfileEventsController {
  constructor(
    private readonly queries: QueryBus,
    private readonly clock: Clock,
  ) {}

  @Get(':profileId/Events')
  @ApiAuth('events', 'read')
  @ApiOperation({
    summary: "A profile's events",
    description: `The events of the profile's applied writes (docs/events.md), oldest first: the same events subscriptions receive, with the same EventId. Kept ${MAX_EVENT_HISTORY_DAYS} days (MaxEventHistoryDays) and for the profile's last 500 writes; a StartAt before that is moved up to it. Events about consent types, programs or custom fields outside the caller's user group's scope are left out, and a profile in Data shows only what the group may see. A deleted profile shows its profile.deleted event. Locale is accepted and changes nothing (events carry no localised text).`,
  })
  @ApiProfileIdParam()
  @ApiQuery({
    name: 'EventType',
    required: false,
    description: 'One or more event types, comma-separated (default: all)',
    schema: { type: 'string', example: 'consent.updated,consent.deactivated' },
  })
  @ApiQuery({
    name: 'StartAt',
    required: false,
    description: `ISO 8601 date-time with a zone; default and earliest: ${MAX_EVENT_HISTORY_DAYS} days ago`,
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'EndAt',
    required: false,
    description: 'ISO 8601 date-time with a zone; default: now',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({ name: 'Locale', required: false, type: String, description: 'Accepted; no effect' })
  @ApiQuery({
    name: 'limit',
    required: false,
    description: `Events per page, 1 to ${PROFILE_EVENTS_LIMIT_MAX} (default ${PROFILE_EVENTS_LIMIT_DEFAULT})`,
    schema: { type: 'integer', minimum: 1, maximum: PROFILE_EVENTS_LIMIT_MAX },
  })
  @ApiQuery({
    name: 'offset',
    required: false,
    description: 'The first event, from 1 (default 1)',
    schema: { type: 'integer', minimum: 1 },
  })
  @ApiOkResponse({ type: ProfileEventsDto })
  @ApiBadRequestResponse({
    description: `Invalid profileId, StartAt, EndAt (StartAt after EndAt), EventType (one of: ${EVENT_TYPE_NAMES.join(', ')}), limit or offset; the Message names it`,
  })
  @ApiNotFoundResponse({ description: 'Unknown client, or no such profile' })
  events(
    @CurrentCaller() caller: Caller,
    @ProfileIdParam() profileId: number,
    @Query('StartAt') startAt?: string,
    @Query('EndAt') endAt?: string,
    @Query('EventType') eventType?: string,
    @PositiveIntParam('limit', { in: 'query', max: PROFILE_EVENTS_LIMIT_MAX }) limit?: number,
    @PositiveIntParam('offset', { in: 'query' }) offset?: number,
    // Read from the request, not @Query: a @Query parameter would enter the OpenAPI document.
    @Req() httpRequest?: { query: Record<string, unknown> },
  ): Promise<ProfileEventsDto> {
    const sourceGroupIds = httpRequest?.query.SourceGroupIds;
    if (sourceGroupIds !== undefined) {
      // Refused rather than ignored: a filter silently dropped would answer other events.
      // Not in the OpenAPI document until it is supported (docs/events.md).
      throw new InvalidInputError(
        `SourceGroupIds ("${String(sourceGroupIds)}") is not supported yet: events name the writing user (UserId), not its user group`,
      );
    }
    const request = profileEventsRequest(
      { StartAt: startAt, EndAt: endAt, EventType: eventType },
      this.clock.now(),
    );
    return this.queries.execute(
      new GetProfileEventsQuery(
        caller.clientId,
        profileId,
        request,
        scopeOf(caller),
        offset ?? 1,
        limit ?? PROFILE_EVENTS_LIMIT_DEFAULT,
      ),
    );
  }
}
