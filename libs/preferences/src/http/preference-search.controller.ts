import { AttributeSearchController } from '@app/profiles';
import type { PreferenceAttributeSearch } from '../search/preference-attribute-search';

/** The profile search Preferences owns; Profiles runs it (SearchProfilesQuery). */
export class PreferenceSearchController extends AttributeSearchController<
  PreferenceAttributeSearch['kind']
>({
  path: 'Preference/Attributes',
  kind: 'preferenceAttributes',
  operationId: 'ProfileSearchController_byPreferenceAttributes',
  summary: 'Profiles with a preference holding all listed attributes',
  matches:
    'Matches a profile with an active preference (ProfilePreferences, or the preferences of an active email, phone or address) whose PreferenceAttributes include every listed Key/Value pair. In the answer, only the preferences holding all listed attributes are returned (in every container); the rest of each profile is as GET profile returns it.',
}) {}
