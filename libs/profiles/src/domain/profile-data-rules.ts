import { consentDataRule } from './consent.rules';
import { preferenceDataRule } from './preference.rules';
import type { DataRule } from './data-rule';
import type { ProfileData } from './profile-data.schema';
import type { WriteContext } from './profile-merge';
import type { ProfileVocabulary } from './profile-vocabulary';

/** In order; each rule module (preferences, consents) adds its step here. */
const DATA_RULES: DataRule[] = [consentDataRule, preferenceDataRule];

/** Runs every data rule after a create, merge, overwrite or patch. */
export function applyDataRules(
  before: ProfileData | undefined,
  after: ProfileData,
  vocabulary: ProfileVocabulary,
  ctx: WriteContext,
): ProfileData {
  return DATA_RULES.reduce((data, rule) => rule(before, data, vocabulary, ctx), after);
}
