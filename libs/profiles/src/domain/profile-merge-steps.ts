import { type AbsorbContext, absorbProfile, alternateIdsToMove } from './profile-absorb';
import { NotFoundError } from '@app/shared';
import { PermanentWriteError } from './permanent-write-error';
import type { ProfileData, StoredAlternateId } from './profile-data.schema';

/*
 * The decisions of the two queued writes of a profile merge (docs/profile-merge.md, "The
 * crash-safe sequence"), pure so that every re-application after a crash decides the same:
 * `merged-into` applied on the absorbed profile A, `absorb` applied on the survivor S.
 * Wired into the worker's fold by merge/profile-merge-apply.service.ts.
 */

/** What the merge steps read of a profile (the stored Profile plus the merge marks). */
export interface MergeSide {
  profileId: number;
  state: 'pending' | 'active' | 'deleted' | 'merged';
  data?: ProfileData;
  /** Set on A by `merged-into`: the survivor. */
  mergedInto?: number;
  /** Set on S by `absorb`: the profiles it absorbed, in order. */
  absorbed?: number[];
}

/** Why a merge write, or a write on a merged profile, is refused (recorded as Failed). */
export class MergeRefusal extends PermanentWriteError {}

/** A request naming a merged profile: 404 naming its survivor (`MergedInto` in the answer). */
export class MergedProfileError extends NotFoundError {
  constructor(
    readonly profileId: number,
    readonly mergedInto: number,
  ) {
    super(mergedMessage(profileId, mergedInto));
    this.details = { MergedInto: mergedInto };
  }
}

export function mergedMessage(profileId: number, survivor: number): string {
  return `Profile ${profileId} was merged into profile ${survivor}`;
}

/**
 * Step 1, `merged-into {survivor}` on A. `survivorRecord` is the merge record absorbing S,
 * if any (S merging or merged into someone: refused, which breaks every cycle). Returns
 * the next state of A and whether the `absorb` write must be queued on S (always, on a
 * first application; a re-application after A's save is a no-op). Throws MergeRefusal.
 */
export function applyMergedInto(
  absorbed: MergeSide,
  survivor: MergeSide | null,
  survivorRecord: { survivor: number } | null,
): { next: MergeSide; queueAbsorb: boolean } {
  if (!survivor || survivor.state !== 'active') {
    throw new MergeRefusal(`Profile ${survivor?.profileId ?? '?'} (the survivor) is not active`);
  }
  if (absorbed.state === 'merged') {
    if (absorbed.mergedInto === survivor.profileId) return { next: absorbed, queueAbsorb: false };
    throw new MergeRefusal(mergedMessage(absorbed.profileId, absorbed.mergedInto!));
  }
  if (absorbed.state !== 'active') {
    throw new MergeRefusal(`Profile ${absorbed.profileId} is not active`);
  }
  if (survivor.profileId === absorbed.profileId) {
    throw new MergeRefusal('A profile cannot absorb itself');
  }
  if (survivorRecord) {
    throw new MergeRefusal(
      survivorRecord.survivor === absorbed.profileId
        ? `Profile ${survivor.profileId} is being merged into profile ${absorbed.profileId}: merging both ways is refused`
        : `Profile ${survivor.profileId} is being merged into profile ${survivorRecord.survivor}`,
    );
  }
  // The data is kept: the survivor's absorb reads it (and history shows it with its origin).
  return {
    next: { ...absorbed, state: 'merged', mergedInto: survivor.profileId },
    queueAbsorb: true,
  };
}

/**
 * Step 2, `absorb {absorbed: A}` on S: the survivor's next state and the claims to move
 * A → S before its save; a no-op when S absorbed A already (a second `absorb` queued by a
 * re-applied step 1, or a re-applied step 2 after the save). Throws MergeRefusal when A is
 * not merged into S (nothing to absorb) or S is no longer active.
 */
export function applyAbsorb(
  survivor: MergeSide,
  absorbed: MergeSide,
  ctx: AbsorbContext,
): { next: MergeSide; claimsToMove: StoredAlternateId[]; noop: boolean } {
  if ((survivor.absorbed ?? []).includes(absorbed.profileId)) {
    return { next: survivor, claimsToMove: [], noop: true };
  }
  if (survivor.state !== 'active' || !survivor.data) {
    throw new MergeRefusal(`Profile ${survivor.profileId} (the survivor) is not active`);
  }
  if (absorbed.state !== 'merged' || absorbed.mergedInto !== survivor.profileId || !absorbed.data) {
    throw new MergeRefusal(
      `Profile ${absorbed.profileId} is not being merged into profile ${survivor.profileId}`,
    );
  }
  return {
    next: {
      ...survivor,
      data: absorbProfile(survivor.data, absorbed.data, ctx),
      absorbed: [...(survivor.absorbed ?? []), absorbed.profileId],
    },
    claimsToMove: alternateIdsToMove(absorbed.data),
    noop: false,
  };
}

/**
 * Any other write on a merged profile is refused, naming the survivor (a redirect could
 * turn a PUT naming A's data into the deletion of S's). An erasure is not: erasing the
 * survivor erases the profiles it absorbed, which still hold the person's data.
 */
export function refuseWriteOnMerged(profile: MergeSide, kind?: string): void {
  if (profile.state === 'merged' && kind !== 'erase') {
    throw new MergeRefusal(mergedMessage(profile.profileId, profile.mergedInto!));
  }
}
