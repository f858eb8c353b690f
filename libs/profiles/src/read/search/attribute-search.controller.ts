import { Get, type Type } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import { ApiTextQuery } from '@app/shared';
import type { SearchCriteriaOf } from '../../domain/profile-rules.port';
import { ProfileDto } from '../../wire/profile.dto';
import {
  ProfileSearchRoutes,
  SEARCH_ATTRIBUTES,
  SEARCH_RESULT,
  searchProfilesQuery,
} from './profile-search.api';
import { SearchAttributeParams, SearchFlagParams, type SearchFlags } from './profile-search.params';
import type { AttributePair } from './search-profiles/profile-search.criteria';

/** The attribute search of a rule module: its route and the criteria its search rule takes. */
export interface AttributeSearchRoute<Kind extends string> {
  /** Below `{clientId}/Profile/`. */
  path: string;
  /** The kind of the criteria (the module's ProfileSearchRule). */
  kind: Kind;
  /** The id the route had when Profiles served it: generated clients name methods by it. */
  operationId: string;
  summary: string;
  /** What matches: the route's description, between the attribute pairs' and the answer's. */
  matches: string;
}

/** The criteria an attribute search dispatches: the module's kind and the query's pairs. */
export interface AttributeSearchCriteria<Kind extends string> extends SearchCriteriaOf<Kind> {
  attributes: AttributePair[];
}

/** What an attribute search controller serves. */
export interface AttributeSearch {
  search(caller: Caller, attributes: AttributePair[], flags: SearchFlags): Promise<ProfileDto[]>;
}

/**
 * The controller of a rule module's attribute search (a consent or preference attribute
 * search): the module's controller extends it with its route; Profiles runs the search.
 */
export function AttributeSearchController<Kind extends string>(
  route: AttributeSearchRoute<Kind>,
): Type<AttributeSearch> {
  @ProfileSearchRoutes()
  class AttributeSearchRoutes implements AttributeSearch {
    constructor(private readonly queries: QueryBus) {}

    @Get(route.path)
    @ApiAuth('profiles', 'read')
    @ApiOperation({
      operationId: route.operationId,
      summary: route.summary,
      description: `${SEARCH_ATTRIBUTES} ${route.matches} ${SEARCH_RESULT}`,
    })
    @ApiTextQuery('attributes[0].Key', {
      required: true,
      description: 'Then attributes[1].Key, ...',
    })
    @ApiTextQuery('attributes[0].Value', {
      required: true,
      description: 'Then attributes[1].Value, ...',
    })
    @ApiOkResponse({ type: ProfileDto, isArray: true })
    search(
      @CurrentCaller() caller: Caller,
      @SearchAttributeParams() attributes: AttributePair[],
      @SearchFlagParams() flags: SearchFlags,
    ): Promise<ProfileDto[]> {
      const criteria: AttributeSearchCriteria<Kind> = { kind: route.kind, attributes };
      return this.queries.execute(searchProfilesQuery(caller, criteria, flags));
    }
  }
  return AttributeSearchRoutes;
}
