import { Injectable, Logger } from '@nestjs/common';
import { CRASH_POINTS, CrashPoints } from '@app/shared';
import {
  applyAbsorb,
  applyMergedInto,
  type MergeSide,
  refuseWriteOnMerged,
} from '../domain/profile-merge-steps';
import { ProfileRules } from '../domain/profile-rules';
import type { PreparedMerge } from '../domain/profile-transition';
import type { ProfileVocabulary } from '../domain/profile-vocabulary';
import type { ProfileWrite } from '../domain/profile-write.schema';
import type { AbsorbWrite } from '../domain/profile-merge-record.schema';
import { writeBodyOf } from '../domain/profile-write-body';
import type { Profile } from '../domain/profile.schema';
import { AlternateIdClaimRepository } from '../persistence/alternate-id-claim.repository';
import { ProfileMergeRepository } from '../persistence/profile-merge.repository';
import { ProfileRepository } from '../persistence/profile.repository';
import { ProfileWriteIntake } from '../intake/profile-write-intake.service';

/** How long a survivor's pass waits for the absorbed profile's step 1 to be saved. */
const ABSORB_WAIT_MS = 250;

/**
 * The I/O around the two merge steps (docs/profile-merge.md, "The crash-safe sequence"),
 * run by the fold stage before it folds the write, under the profile's lease; the
 * decisions are the pure steps of domain/profile-merge-steps.ts. Every read is by `_id`.
 *
 * - `merged-into` on A: S and S's merge record read; refused when S is not active or is
 *   itself being absorbed (which breaks every cycle); else the `absorb` write is queued on
 *   S before A's save (a re-applied step queues a second one, which S applies as a no-op).
 * - `absorb` on S: A read; A's alternate-id claims moved A → S one by one (each move ends
 *   A's holding and names S in one claim document: never both holders, never none).
 * - any other write on a merged profile: refused, naming the survivor.
 */
@Injectable()
export class ProfileMergeApply {
  private readonly logger = new Logger('ProfileMerge');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly merges: ProfileMergeRepository,
    private readonly claims: AlternateIdClaimRepository,
    private readonly intake: ProfileWriteIntake,
    private readonly crashPoints: CrashPoints,
    private readonly rules: ProfileRules,
  ) {}

  /** Undefined for a write that is no merge step (throws MergeRefusal on a merged profile). */
  async prepare(
    before: Profile,
    write: ProfileWrite,
    vocabulary: ProfileVocabulary,
  ): Promise<PreparedMerge | undefined> {
    if (write.kind === 'merged-into') return this.mergedInto(before, write);
    if (write.kind === 'absorb') return this.absorb(before, write, vocabulary);
    refuseWriteOnMerged(side(before), write.kind);
    return undefined;
  }

  /**
   * An `absorb` queued by the absorbed profile's step 1 before that profile's save: until
   * the save lands (the absorbed profile shows merged) the survivor's pass stops before it
   * and looks again after ABSORB_WAIT_MS (its later writes wait behind it, in order). Once
   * the absorbed profile's merge record is gone (its step refused) the absorb is applied,
   * and refused. Undefined: apply it now.
   */
  async absorbWait(write: ProfileWrite): Promise<number | undefined> {
    if (write.kind !== 'absorb') return undefined;
    const body = writeBodyOf(write, 'absorb');
    const absorbed = await this.profiles.findOne(write.clientId, body.AbsorbedProfileId);
    if (absorbed?.state !== 'active') return undefined;
    const record = await this.merges.find(write.clientId, body.AbsorbedProfileId);
    const coming = record?.survivor === write.profileId && record.state === 'accepted';
    return coming ? ABSORB_WAIT_MS : undefined;
  }

  /** After the save of a pass: a refused `merged-into` leaves no record; an absorb closes it. */
  async afterSave(steps: { write: ProfileWrite; failure?: string }[]): Promise<void> {
    for (const { write, failure } of steps) {
      if (write.kind === 'merged-into' && failure !== undefined) {
        const body = writeBodyOf(write, 'merged-into');
        await this.merges.remove(write.clientId, write.profileId, body.Survivor);
      }
      if (write.kind === 'absorb' && failure === undefined) {
        const body = writeBodyOf(write, 'absorb');
        await this.merges.markDone(write.clientId, body.AbsorbedProfileId);
      }
    }
  }

  private async mergedInto(before: Profile, write: ProfileWrite): Promise<PreparedMerge> {
    const body = writeBodyOf(write, 'merged-into');
    const [survivor, survivorRecord] = await Promise.all([
      this.profiles.findOne(write.clientId, body.Survivor),
      this.merges.find(write.clientId, body.Survivor),
    ]);
    const { next, queueAbsorb } = applyMergedInto(
      side(before),
      survivor ? side(survivor) : null,
      survivorRecord,
    );
    if (queueAbsorb) {
      const absorb: AbsorbWrite = {
        AbsorbedProfileId: before.profileId,
        ReasonCode: body.ReasonCode,
        MergedAt: write.acceptedAt.toISOString(),
        MergedBy: write.userId,
      };
      await this.merges.noteWrite(write.clientId, before.profileId, write.seq);
      await this.intake.accept({
        clientId: write.clientId,
        profileId: body.Survivor,
        kind: 'absorb',
        body: absorb,
        userId: write.userId,
        // Queued by the worker while it applies the merge: no request, no commit window.
        window: null,
      });
      await this.crashPoints.at(CRASH_POINTS.mergeAfterAbsorbQueued);
    }
    return { kind: 'merged-into', survivor: next.mergedInto!, noop: !queueAbsorb };
  }

  private async absorb(
    before: Profile,
    write: ProfileWrite,
    vocabulary: ProfileVocabulary,
  ): Promise<PreparedMerge> {
    const body = writeBodyOf(write, 'absorb');
    const absorbed = await this.profiles.findOne(write.clientId, body.AbsorbedProfileId);
    const decision = applyAbsorb(
      side(before),
      absorbed ? side(absorbed) : { profileId: body.AbsorbedProfileId, state: 'deleted' },
      {
        at: body.MergedAt,
        userId: body.MergedBy,
        reasonCode: body.ReasonCode,
        updateRuleOf: (name) => vocabulary.customField(name)?.UpdateRuleId,
        precedence: this.rules.mergePrecedence(),
      },
    );
    if (decision.noop) return { kind: 'absorb', noop: true };
    for (const pair of decision.claimsToMove) await this.moveClaim(before, absorbed!, pair);
    return {
      kind: 'absorb',
      noop: false,
      data: decision.next.data!,
      absorbed: decision.next.absorbed!,
      absorbedProfileId: absorbed!.profileId,
      absorbedHead: absorbed!.historyChainHead ?? null,
      absorbedCreateDate: absorbed!.data?.Edited?.CreateDate ?? null,
    };
  }

  /**
   * One claim A → S. Already S's (a step re-applied after a crash): skipped. Held by
   * nobody (released meanwhile): claimed for S. Held by a third profile: left, logged (the
   * pair stays in S's data as A had it; the next write of S that names it meets the claim).
   */
  private async moveClaim(
    survivor: Profile,
    absorbed: Profile,
    pair: { AlternateIdType: string; AlternateId: string },
  ): Promise<void> {
    const { clientId } = survivor;
    const { AlternateIdType: type, AlternateId: value } = pair;
    const moved = await this.claims.takeOver(
      clientId,
      type,
      value,
      absorbed.profileId,
      survivor.profileId,
    );
    if (!moved) {
      const holder = await this.claims.holder(clientId, type, value);
      if (holder === null) await this.claims.claimIfFree(clientId, type, value, survivor.profileId);
      else if (holder !== survivor.profileId)
        this.logger.warn(`alternate id of ${absorbed._id} is held by profile ${holder}: not moved`);
    }
    await this.crashPoints.at(CRASH_POINTS.mergeAfterClaim);
  }
}

function side(profile: Profile): MergeSide {
  return {
    profileId: profile.profileId,
    state: profile.state,
    data: profile.data,
    mergedInto: profile.mergedInto,
    absorbed: profile.absorbed,
  };
}
