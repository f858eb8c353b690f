import type { ProfileWrite, ProfileWriteStatus } from '../../domain/profile-write.schema';
import type { ProfileUpdateDto } from './profile-update.dto';

const STATUS = { pending: 'Pending Update', applied: 'Complete', failed: 'Failed' } as const;

/** A stored write and its status (statusOf) → its public status entry (never its body). */
export function toProfileUpdateDto(
  write: ProfileWrite,
  status: ProfileWriteStatus,
): ProfileUpdateDto {
  return {
    Sequence: write.seq,
    Operation: write.kind,
    Status: STATUS[status],
    SubmittedUtcTime: write.acceptedAt.toISOString(),
    CompletedUtcTime: write.appliedAt?.toISOString(),
    FailureReason: write.failureReason,
    UserId: write.userId,
  };
}
