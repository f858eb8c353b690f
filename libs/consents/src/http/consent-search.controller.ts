import { AttributeSearchController } from '@app/profiles';
import type { ConsentAttributeSearch } from '../search/consent-attribute-search';

/** The profile search Consents owns; Profiles runs it (SearchProfilesQuery). */
export class ConsentSearchController extends AttributeSearchController<
  ConsentAttributeSearch['kind']
>({
  path: 'Consent/Attributes',
  kind: 'consentAttributes',
  operationId: 'ProfileSearchController_byConsentAttributes',
  summary: 'Profiles holding a consent of a type carrying all listed attributes',
  matches:
    'Consent types (configuration) carry Attributes [{Key, Value}]. Matches a profile holding an active consent (profile level, or on an active email, phone or address) whose ConsentType is a consent type (active or not) whose attributes include every listed Key/Value pair. The consent status is not considered. No consent type carries them all: an empty array.',
}) {}
