import { historyEntryKey, profileEventKey } from '../keys';
import type { AbsorbWrite } from './profile-merge-record.schema';
import type { HistoryEntry } from './profile-history';
import { MERGE_HISTORY_CATEGORY, type MergeSnapshot } from './profile-history.schema';
import type { ProfileEvent } from './profile-events';
import type { PreparedMerge } from './profile-transition';
import type { ProfileWrite } from './profile-write.schema';
import { writeBodyOf } from './profile-write-body';

export { MERGE_HISTORY_CATEGORY, type MergeSnapshot };

type AppliedAbsorb = Extract<PreparedMerge, { kind: 'absorb'; noop: false }>;

export function mergeBody(write: ProfileWrite): AbsorbWrite {
  return writeBodyOf(write, 'absorb');
}

/** The merge's own entry, the n-th of its write (after the changes the merge made). */
export function mergeHistoryEntry(
  write: ProfileWrite,
  n: number,
  merge: AppliedAbsorb,
): HistoryEntry {
  const body = mergeBody(write);
  const snapshot: MergeSnapshot = {
    AbsorbedProfileId: merge.absorbedProfileId,
    ReasonCode: body.ReasonCode,
    MergedBy: body.MergedBy ?? write.userId,
    MergedAt: body.MergedAt ?? write.acceptedAt.toISOString(),
    AbsorbedHead: merge.absorbedHead,
    AbsorbedCreateDate: merge.absorbedCreateDate,
  };
  return {
    _id: historyEntryKey(write.clientId, write.profileId, write.seq, n),
    clientId: write.clientId,
    profileId: write.profileId,
    seq: write.seq,
    n,
    category: MERGE_HISTORY_CATEGORY,
    modifiedAt: write.acceptedAt.toISOString(),
    snapshot: { ...snapshot },
  };
}

/** `profile.merged`, the n-th event of the survivor's absorb write. */
export function mergeEvent(write: ProfileWrite, merge: AppliedAbsorb, n: number): ProfileEvent {
  const body = mergeBody(write);
  return {
    id: profileEventKey(write.clientId, write.profileId, write.seq, n),
    type: 'profile.merged',
    profileId: write.profileId,
    seq: write.seq,
    n,
    at: write.acceptedAt.toISOString(),
    userId: write.userId,
    data: {
      ProfileId: write.profileId,
      AbsorbedProfileId: merge.absorbedProfileId,
      ReasonCode: body.ReasonCode,
      MergedAt: body.MergedAt ?? write.acceptedAt.toISOString(),
    },
  };
}
