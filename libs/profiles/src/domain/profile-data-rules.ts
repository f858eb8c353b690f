import { consentDataRule } from './consent.rules';
import { preferenceDataRule } from './preference.rules';
import type { ProfileVocabulary } from './profile-configuration.rules';
import type { ProfileData } from './profile-data.schema';
import type { WriteContext } from './profile-merge';

/**
 * A rule that derives stored values once a write has been merged into the profile.
 * Pure and deterministic: time comes from the write (`ctx.at`), never from a clock, so
 * a retried write derives the same values. `before` is the stored data before the write
 * (undefined for a create).
 */
export type DataRule = (
  before: ProfileData | undefined,
  after: ProfileData,
  vocabulary: ProfileVocabulary,
  ctx: WriteContext,
) => ProfileData;

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
