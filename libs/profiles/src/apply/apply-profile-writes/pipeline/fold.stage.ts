import { Injectable } from '@nestjs/common';
import { ConflictError } from '@app/shared';
import { alternateIdKey } from '../../../domain/element-rules';
import { PermanentWriteError } from '../../../domain/profile-transition';
import type { Profile } from '../../../domain/profile.schema';
import { AlternateIdClaims } from '../../../persistence/alternate-id-claims.service';
import { ProfileExtensions } from '../../profile-extensions.service';
import { ProfileEraser } from '../../../erasure/profile-eraser.service';
import { ProfileMergeApply } from '../../../merge/profile-merge-apply.service';
import { endsPass, type FoldContext, foldWrite, type PassStep, skipWrite } from './fold';
import type { PendingWrite } from './load.stage';

/** What folding a pass's writes made: its steps in order and the profile after the last. */
export interface FoldedPass {
  steps: PassStep[];
  profile: Profile;
  /**
   * An unexpected error (not a refusal) folding a write after the first: the pass ends
   * before that write, which is the first of the next pass (where its failure is counted).
   */
  stoppedBy?: unknown;
}

/**
 * Stage 2, check and fold each write, in order: the pure fold (fold.ts) and, around it,
 * what only I/O can decide or must do before the save: a patch's new alternate ids are
 * claimed (a pair another profile holds refuses it, like a 409 at the api), the rule
 * extensions' `beforeSave` queues their follow-up writes behind the write (a do-not-contact mark
 * on an added email), an erasure removes what the profile holds elsewhere, and a merge step
 * reads the other profile and moves claims (ProfileMergeApply). A refused
 * write (PermanentWriteError, or a failure decided at load) becomes a failed step: the
 * profile moves past it unchanged but for its `lastFailure`. An unexpected error on the
 * pass's first write is thrown (the caller counts it); on a later one it ends the pass.
 */
@Injectable()
export class FoldStage {
  constructor(
    private readonly alternateIds: AlternateIdClaims,
    private readonly extensions: ProfileExtensions,
    private readonly eraser: ProfileEraser,
    private readonly merges: ProfileMergeApply,
  ) {}

  async run(profile: Profile, writes: PendingWrite[], ctx: FoldContext): Promise<FoldedPass> {
    const steps: PassStep[] = [];
    let state = profile;
    for (const [k, { write, failure: decided }] of writes.entries()) {
      const before = state;
      let step: PassStep;
      if (decided) step = { write, before, failure: decided };
      else {
        try {
          // A merge step reads the other profile first; a merged profile refuses the rest.
          const merge = await this.merges.prepare(before, write, ctx.vocabulary);
          const folded = foldWrite(before, write, ctx, merge);
          if (write.kind === 'patch') await this.claimPatchedPairs(before, folded.next);
          // Follow-up writes of the extensions, queued behind this write before its save
          // (a death after the save loses none).
          // An absorb names the profile it absorbs (what that profile's requests become).
          const applied =
            merge?.kind === 'absorb' && !merge.noop
              ? { ...write, absorbedProfileId: merge.absorbedProfileId }
              : write;
          await this.extensions.beforeSave(write.clientId, [
            { write: applied, before: folded.named.data, after: folded.next.data },
          ]);
          // An erasure removes what the profile holds before the save that commits it.
          if (write.kind === 'erase') await this.eraser.beforeSave(before, write);
          step = { write, before, folded };
        } catch (error) {
          if (error instanceof PermanentWriteError)
            step = { write, before, failure: error.message };
          else if (k === 0) throw error;
          else return { steps, profile: state, stoppedBy: error };
        }
      }
      steps.push(step);
      state = step.folded ? step.folded.next : skipWrite(before, write, step.failure, ctx.now);
      if (endsPass(step)) break;
    }
    return { steps, profile: state };
  }

  /**
   * A patch's alternate ids are only known here, once it is applied: the pairs it adds are
   * claimed now (a pair another profile holds refuses the patch, like a 409 at the api).
   */
  private async claimPatchedPairs(before: Profile, after: Profile): Promise<void> {
    const had = new Set(
      (before.data?.AlternateIds ?? [])
        .filter((pair) => pair.IsActive !== false)
        .map((pair) => alternateIdKey(pair.AlternateIdType, pair.AlternateId)),
    );
    const added = (after.data?.AlternateIds ?? []).filter(
      (pair) =>
        pair.IsActive !== false && !had.has(alternateIdKey(pair.AlternateIdType, pair.AlternateId)),
    );
    if (!added.length) return;
    try {
      await this.alternateIds.claimAll(after.clientId, after.profileId, added);
    } catch (error) {
      if (error instanceof ConflictError) throw new PermanentWriteError(error.message);
      throw error;
    }
  }
}
