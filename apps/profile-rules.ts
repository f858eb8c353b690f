import { CONSENT_PROFILE_RULES } from '@app/consents';
import { PREFERENCE_PROFILE_RULES } from '@app/preferences';
import { ProfileRulesModule } from '@app/profiles';

/**
 * The rule modules of the profile write pipeline, in order (consents, then preferences:
 * a preference's consent associations are checked against consents already settled). The
 * api (acceptance) and the worker (apply) must compose the same list.
 */
export const PROFILE_RULES = ProfileRulesModule.register([
  CONSENT_PROFILE_RULES,
  PREFERENCE_PROFILE_RULES,
]);
