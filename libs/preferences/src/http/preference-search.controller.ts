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
import type { PreferenceAttributeSearch } from '../search/preference-attribute-search';

/** The profile search Preferences owns; Profiles runs it (SearchProfilesQuery). */
@ProfileSearchRoutes()
export class PreferenceSearchController {
  constructor(private readonly queries: QueryBus) {}

  @Get('Preference/Attributes')
  @ApiAuth('profiles', 'read')
  @ApiOperation({
    // The id it had when Profiles served the route: generated clients name methods by it.
    operationId: 'ProfileSearchController_byPreferenceAttributes',
    summary: 'Profiles with a preference holding all listed attributes',
    description: `${SEARCH_ATTRIBUTES} Matches a profile with an active preference (ProfilePreferences, or the preferences of an active email, phone or address) whose PreferenceAttributes include every listed Key/Value pair. In the answer, only the preferences holding all listed attributes are returned (in every container); the rest of each profile is as GET profile returns it. ${SEARCH_RESULT}`,
  })
  @ApiTextQuery('attributes[0].Key', { required: true, description: 'Then attributes[1].Key, ...' })
  @ApiTextQuery('attributes[0].Value', {
    required: true,
    description: 'Then attributes[1].Value, ...',
  })
  @ApiOkResponse({ type: ProfileDto, isArray: true })
  byPreferenceAttributes(
    @CurrentCaller() caller: Caller,
    @SearchAttributeParams() attributes: AttributePair[],
    @SearchFlagParams() flags: SearchFlags,
  ): Promise<ProfileDto[]> {
    const criteria: PreferenceAttributeSearch = { kind: 'preferenceAttributes', attributes };
    return this.queries.execute(searchProfilesQuery(caller, criteria, flags));
  }
}
