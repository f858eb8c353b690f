import type { ProfileData } from './profile-data.schema';
import type { WriteContext } from './apply-profile-write';
import type { ProfileVocabulary } from './profile-vocabulary';

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
