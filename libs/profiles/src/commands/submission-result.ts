import type { ProfileWrite } from '../domain/profile-write.schema';
import type { ProfileDto, ProfileSubmissionResultDto } from '../dto/profile.dto';
import { UPDATE_STATUS } from '../mapping/profile.mapper';

/** The 202 answer of an accepted write. */
export function toSubmissionResult(
  profileId: number,
  body: ProfileDto,
  write: ProfileWrite,
): ProfileSubmissionResultDto {
  const alternateId = body.AlternateIds?.find((pair) => pair.IsActive !== false);
  return {
    AlternateId: alternateId?.AlternateId ?? null,
    AlternateIdType: alternateId?.AlternateIdType ?? null,
    ProfileId: profileId,
    UpdateStatus: UPDATE_STATUS.pending,
    SubmittedUtcTime: write.acceptedAt.toISOString(),
  };
}
