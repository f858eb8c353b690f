import { Injectable } from '@nestjs/common';
import { Clock, CRASH_POINTS, CrashPoints, inSpan, linkWrites, Metrics } from '@app/shared';
import { ProfileRules } from '../../../domain/profile-rules';
import type { ProfileVocabulary } from '../../../domain/profile-vocabulary';
import type { ProfileWrite } from '../../../domain/profile-write.schema';
import type { Profile } from '../../../domain/profile.schema';
import { ProfileSettings } from '../../../profile-settings';
import { ProfileEventRepository } from '../../../persistence/profile-event.repository';
import { ProfileHistoryRepository } from '../../../persistence/profile-history.repository';
import { ProfileWriteRepository } from '../../../persistence/profile-write.repository';
import type { CountedStep } from '../../../ports/profile-extension.port';
import { ProfileExtensions } from '../../profile-extensions.service';
import { AfterApplyStage } from './after-apply.stage';
import { type PassStep, skipWrite } from './fold';
import { FoldStage } from './fold.stage';
import { type LeaseHold, LeaseLostError } from './lease-hold';
import { LoadStage } from './load.stage';
import { RecordStage } from './record.stage';
import { SaveStage } from './save.stage';

/**
 * Writes one pass takes at most: the profile is read once and saved once per pass, so a
 * pass bounds both the work lost to a crash and what one save carries; a longer backlog
 * takes more passes in the same job.
 */
export const PASS_MAX_WRITES = 100;

/** What one pass did. */
export interface PassResult {
  /** The profile as saved (or as found, when the pass took no write). */
  profile: Profile;
  /** Writes the pass moved past (applied or recorded as failed). */
  applied: number;
  /** The pass stopped before a keyed write that may still commit: run again after this. */
  waitMs?: number;
  /**
   * The highest accepted sequence number the pass's publication read after its save (null:
   * none recorded; absent: not read).
   */
  acceptedSeq?: number | null;
}

/** The applied steps of a pass, as the extensions' `prepare` sees them. */
function countedSteps(steps: PassStep[]): CountedStep[] {
  return steps.flatMap((step) =>
    step.folded ? [{ write: step.write, before: step.folded.named, after: step.folded.next }] : [],
  );
}

/**
 * The apply path as one pipeline of named stages, each in its own file:
 *
 * 1. load (LoadStage): the pass's writes after appliedSeq by `_id`, their fates, their starts;
 * 2. fold (FoldStage, fold.ts): each write checked by the rules and folded in order, with
 *    its bounds, history entries and references, receipt-chain links and events;
 * 3-4. history and events (RecordStage): the pass's history pages written once, its events
 *    stored together, refused writes recorded as failed;
 * 5-6. save and publish (SaveStage): the profile replaced once by `_id`, then published;
 * 7. after-apply (AfterApplyStage): retention of write records, alternate ids, tags.
 *
 * Folding N writes in one pass gives what N passes of one write give (fold.spec.ts): the
 * same profile, history entries, events and write outcomes; only the number of engine
 * commands differs. The bulk import's fast path folds its new profiles with the same fold
 * and saves them through stages 3-7 in their batch-shaped insert mode (RecordStage.
 * recordCreates, SaveStage.insertCreates and what follows it, AfterApplyStage.afterCreates).
 */
@Injectable()
export class ApplyPipeline {
  constructor(
    private readonly load: LoadStage,
    private readonly fold: FoldStage,
    private readonly record: RecordStage,
    private readonly saveStage: SaveStage,
    private readonly after: AfterApplyStage,
    private readonly rules: ProfileRules,
    private readonly clock: Clock,
    private readonly records: ProfileWriteRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly events: ProfileEventRepository,
    private readonly settings: ProfileSettings,
    private readonly metrics: Metrics,
    private readonly extensions: ProfileExtensions,
    private readonly crashPoints: CrashPoints,
  ) {}

  /** The profile by `_id` (null: no shell, so no writes). */
  profile(clientId: string, profileId: number): Promise<Profile | null> {
    // The extensions learn what they hold of the profile in the same turn (the counts).
    return inSpan('profile.apply.load', () =>
      this.extensions.load(clientId, profileId, () => this.load.profile(clientId, profileId)),
    );
  }

  /**
   * The heal path's afterSave: what a crash may have cut short after the last save (the
   * event trigger, the counts the profile carries); a failure marks the hold, as after a save.
   */
  async afterSaveAgain(hold: LeaseHold, profile: Profile): Promise<void> {
    await this.saveStage.afterSaveAgain(hold, profile);
  }

  /** Publishes the profile as it is (what a crash after a save may have cut short). */
  async publish(profile: Profile): Promise<void> {
    await this.saveStage.publish(profile);
  }

  /**
   * One pass over the writes after the profile's appliedSeq: up to `upTo` (accepted, read
   * together) and, with `probe`, any that follow, at most PASS_MAX_WRITES.
   */
  async pass(
    hold: LeaseHold,
    profile: Profile,
    window: { upTo: number; probe: boolean },
    vocabulary: ProfileVocabulary,
  ): Promise<PassResult> {
    // Each stage in its span when tracing is on (profile.apply.<stage>; off: just the call).
    const loaded = await inSpan('profile.apply.load', () =>
      this.load.writes(profile, { ...window, max: PASS_MAX_WRITES }),
    );
    if (!loaded.writes.length) return { profile, applied: 0, waitMs: loaded.waitMs };
    // The apply span links to the requests that accepted these writes.
    linkWrites(loaded.writes.map(({ write }) => write.trace));
    const first = loaded.writes[0].write;
    const ctx = { vocabulary, rules: this.rules, now: this.clock.now() };
    let folded;
    try {
      folded = await inSpan('profile.apply.fold', () => this.fold.run(profile, loaded.writes, ctx));
    } catch (error) {
      return this.countFailure(hold, profile, first, error);
    }
    const { steps } = folded;
    let saved: Profile;
    let acceptedSeq: number | null | undefined;
    try {
      saved = await inSpan('profile.apply.record', () =>
        this.record.run(profile, folded.profile, steps),
      );
      // What rides on the saved profile for the extensions (the pass's change of the counts).
      saved = this.extensions.prepare(profile, saved, countedSteps(steps));
      const events = steps.flatMap((step) => step.folded?.events ?? []);
      const absorbs = steps.some((step) => step.folded && step.write.kind === 'absorb');
      if (absorbs) await this.crashPoints.at(CRASH_POINTS.mergeBeforeAbsorbSave);
      acceptedSeq = await inSpan('profile.apply.save', () =>
        this.saveStage.save(hold, profile, saved, events),
      );
      if (absorbs) await this.crashPoints.at(CRASH_POINTS.mergeAfterAbsorbSave);
    } catch (error) {
      return this.countFailure(hold, profile, first, error);
    }
    await inSpan('profile.apply.after-apply', () => this.after.run(profile, saved, steps));
    // Whether the pass reached the write it must wait for (it may have ended before it).
    const reachedWait = !folded.stoppedBy && steps.length === loaded.writes.length;
    return {
      profile: saved,
      applied: steps.length,
      ...(reachedWait && loaded.waitMs !== undefined ? { waitMs: loaded.waitMs } : {}),
      ...(acceptedSeq !== undefined ? { acceptedSeq } : {}),
    };
  }

  /**
   * An unexpected error (database down, a bug) on the pass's first write, or in its
   * stages: rethrown so the queue retries (the retry's pass takes that write alone, see
   * LoadStage), until the write has failed MAX_WRITE_ATTEMPTS times; then it is recorded
   * as failed and skipped, so one poisoned write cannot block the profile for ever.
   */
  private async countFailure(
    hold: LeaseHold,
    profile: Profile,
    write: ProfileWrite,
    error: unknown,
  ): Promise<never> {
    if (error instanceof LeaseLostError) throw error; // another holder carries on
    const attempts = await this.records.countAttempt(write.clientId, write._id).catch(() => 0);
    if (attempts >= this.settings.maxWriteAttempts && write.kind !== 'erase') {
      const reason = `Gave up after ${attempts} attempts: ${error instanceof Error ? error.message : String(error)}`;
      await this.history.eraseWrite(
        write.clientId,
        write.profileId,
        profile.historyPages ?? 0,
        write.seq,
      );
      await this.events.erase(write.clientId, write.profileId, [write.seq]);
      await this.records.markFailed(write._id, reason);
      await this.saveStage.save(hold, profile, skipWrite(profile, write, reason, new Date()));
      this.metrics.writeFailed(write.kind);
    }
    throw error;
  }
}
