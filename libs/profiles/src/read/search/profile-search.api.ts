import { applyDecorators, Controller } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { ApiClientIdParam, type Caller } from '@app/auth';
import type { SearchCriteriaOf } from '../../domain/profile-rules.port';
import { viewOf } from '../../domain/profile-view';
import type { SearchCriteria } from './search-profiles/profile-search.criteria';
import { SearchProfilesQuery } from './search-profiles/search-profiles.query';
import type { SearchFlags } from './profile-search.params';

/*
 * What every profile search route shares, the profile's own (ProfileSearchController) and
 * those of the rule modules (a consent or preference attribute search): the path, the
 * documented answer and flags, and the query it dispatches.
 */

/** The answer of every profile search, as documented on each route. */
export const SEARCH_RESULT =
  'Answers a JSON array of Profile objects (the content of GET profile: active elements only, UpdateStatus as there), in profile id order, possibly empty. Only active profiles of the caller\'s client are searched, and only active elements match; custom fields, consents and preferences the caller\'s user group may not see never match (nor do implied preferences unless implied=true). Text compares trimmed, with spaces folded, case-insensitively. At most 50 profiles: when more match, 403 {"Message": ...}.';

/** The attribute pairs of the attribute searches, as documented on each route. */
export const SEARCH_ATTRIBUTES =
  'Query parameters attributes[i].Key and attributes[i].Value, both required, i from 0 without gaps (a malformed key is a 400 naming it); keys and values compare trimmed, spaces folded, case-insensitively.';

/** The flags every search takes (spec and compatibility notes: implied, includeConsentHistory). */
export const ApiSearchFlags = (): ClassDecorator =>
  applyDecorators(
    ApiQuery({
      name: 'implied',
      required: false,
      type: Boolean,
      description:
        'true: implied preferences (MatchType "Implied") are returned and can match as well as expressed ones. Default false. Not true/false: 400.',
    }),
    ApiQuery({
      name: 'includeConsentHistory',
      required: false,
      type: Boolean,
      description:
        'Default true. A profile holds one consent per consent type and container, so true and false give the same answer. Not true/false: 400.',
    }),
  );

/** A controller of profile search routes: `{clientId}/Profile/...`, documented alike. */
export const ProfileSearchRoutes = (): ClassDecorator =>
  applyDecorators(
    ApiTags('Profile search'),
    ApiClientIdParam(),
    ApiBadRequestResponse({
      description: 'A missing or malformed query parameter; the Message names it and its value',
    }),
    ApiForbiddenResponse({ description: 'More than 50 profiles match' }),
    ApiNotFoundResponse({ description: 'Unknown client' }),
    ApiSearchFlags(),
    Controller(':clientId/Profile'),
  );

/** The query a search route dispatches, in the caller's view. */
export function searchProfilesQuery(
  caller: Caller,
  criteria: SearchCriteria | SearchCriteriaOf,
  flags: SearchFlags,
): SearchProfilesQuery {
  return new SearchProfilesQuery(
    caller.clientId,
    criteria,
    viewOf(caller, { implied: flags.implied }),
  );
}
