import { applyDecorators, Controller } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiAuth, ApiClientIdParam, type Caller } from '@app/auth';
import type { HistoryCategory } from '../../domain/profile-history.schema';
import { viewOf } from '../../domain/profile-view';
import { HistoryEntryDto } from './history-entry.dto';
import {
  GetProfileHistoryQuery,
  type HistoryTarget,
} from './get-profile-history/get-profile-history.query';
import { ApiAlternateIdQuery } from '../../wire/alternate-id.params';
import { ApiProfileIdParam } from '../../wire/profile-id.param';

/*
 * What every history route shares, the profile's own categories (ProfileHistoryController)
 * and those of the rule modules (preferences, consents): the path, the documented entry
 * shape and answers, and the query it dispatches.
 */

/** The shape of every history entry, as documented on each route. */
export const HISTORY_ENTRY_SHAPE =
  "Each entry is a Profile-shaped object with ProfileId, the profile's current active AlternateIds and one changed item as it was after that write; inactive states are included (IsActive false: deactivated or removed). Only changes the caller's user group may see are listed. A deleted profile has no history (404).";

/** The text of one history category's routes. */
export interface HistoryRouteText {
  summary: string;
  description: string;
}

/**
 * Documents one history route: its permission, operation text and answers. `operationId`
 * keeps the id a route had before it moved to a module's controller.
 */
export const ProfileHistoryRoute = (
  text: HistoryRouteText,
  by: 'id' | 'alternate id',
  operationId?: string,
): MethodDecorator =>
  applyDecorators(
    ApiAuth('history', 'read'),
    ApiOperation({
      summary: `${text.summary} (by ${by})`,
      description: text.description,
      ...(operationId ? { operationId } : {}),
    }),
    by === 'id' ? ApiProfileIdParam() : ApiAlternateIdQuery(),
    ApiOkResponse({ type: HistoryEntryDto, isArray: true }),
  );

/**
 * A controller of history routes: `{clientId}/Profile/...`, documented alike.
 * `Profile/AlternateId/History/...` is a static path, so the router prefers it to
 * `Profile/{profileId}/History/...`.
 */
export const ProfileHistoryRoutes = (): ClassDecorator =>
  applyDecorators(
    ApiTags('History'),
    ApiClientIdParam(),
    ApiBadRequestResponse({
      description:
        'Invalid profileId, missing alternateIdType/alternateId, or filterId given twice; the Message names it',
    }),
    ApiNotFoundResponse({
      description: 'Unknown client, unknown or deleted profile, or no profile holds the pair',
    }),
    Controller(':clientId/Profile'),
  );

/** The query a history route dispatches, in the caller's view. */
export function profileHistoryQuery(
  caller: Caller,
  target: HistoryTarget,
  category: HistoryCategory,
  filterId?: string,
): GetProfileHistoryQuery {
  return new GetProfileHistoryQuery(caller.clientId, target, category, viewOf(caller), filterId);
}
