import { Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiTextQuery } from '@app/shared';
import { ApiAuth, type Caller, CurrentCaller } from '@app/auth';
import {
  type AttributePair,
  ProfileDto,
  ProfileSearchRoutes,
  SEARCH_ATTRIBUTES,
  SEARCH_RESULT,
  SearchAttributeParams,
  SearchFlagParams,
  type SearchFlags,
  searchProfilesQuery,
} from '@app/profiles';
import type { ConsentAttributeSearch } from '../search/consent-attribute-search';

/** The profile search Consents owns; Profiles runs it (SearchProfilesQuery). */
@ProfileSearchRoutes()
export class ConsentSearchController {
  constructor(private readonly queries: QueryBus) {}

  @Get('Consent/Attributes')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    // The id it had when Profiles served the route: generated clients name methods by it.
    operationId: 'ProfileSearchController_byConsentAttributes',
    summary: 'Profiles holding a consent of a type carrying all listed attributes',
    description: `${SEARCH_ATTRIBUTES} Consent types (configuration) carry Attributes [{Key, Value}]. Matches a profile holding an active consent (profile level, or on an active email, phone or address) whose ConsentType is a consent type (active or not) whose attributes include every listed Key/Value pair. The consent status is not considered. No consent type carries them all: an empty array. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('attributes[0].Key', { required: true, description: 'Then attributes[1].Key, ...' })
  @ApiTextQuery('attributes[0].Value', {
    required: true,
    description: 'Then attributes[1].Value, ...',
  })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byConsentAttributes(
    @CurrentCaller() caller: Caller,
    @SearchAttributeParams() attributes: AttributePair[],
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    const criteria: ConsentAttributeSearch = { kind: 'consentAttributes', attributes };
    return this.queries.execute(searchProfilesQuery(caller, criteria, flags));
  }
}
