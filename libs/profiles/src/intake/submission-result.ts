import type { ProfileWrite } from '../domain/profile-write.schema';
import type { ProfileDto, ProfileSubmissionResultDto } from '../wire/profile.dto';
import { UPDATE_STATUS } from '../wire/profile.mapper';
import type { AlternateIdPair } from '../persistence/alternate-id-claims.service';

/** The 202 answer of an accepted write. */
export function toSubmissionResult(
  profileId: number,
  body: ProfileDto,
  write: ProfileWrite,
  /** The pair a by-alternate-id request named: shown instead of the body's first. */
  named?: AlternateIdPair,
): ProfileSubmissionResultDto {
  const alternateId = named ?? body.AlternateIds?.find((pair) => pair.IsActive !== false);
  return {
    AlternateId: alternateId?.AlternateId ?? null,
    AlternateIdType: alternateId?.AlternateIdType ?? null,
    ProfileId: profileId,
    UpdateStatus: UPDATE_STATUS.pending,
    SubmittedUtcTime: write.acceptedAt.toISOString(),
  };
}
