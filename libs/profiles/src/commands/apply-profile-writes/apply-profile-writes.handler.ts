import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import {
  ConflictError,
  CRASH_POINTS,
  CrashPoints,
  JobQueue,
  LeaseService,
  Metrics,
} from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import { ProfileRules } from '../../domain/profile-rules';
import { describeWrite } from '../../domain/profile-history';
import { chainHistoryEntries } from '../../domain/history-chain';
import { withHistoryRefs } from '../../domain/history-refs';
import { type ProfileEvent, profileEvents } from '../../domain/profile-events';
import { profileBoundViolations } from '../../domain/profile-bounds';
import {
  PermanentWriteError,
  transitionProfile,
  withCurrentProfileNames,
} from '../../domain/profile-transition';
import type { Profile } from '../../domain/profile.schema';
import type { ProfileWrite } from '../../domain/profile-write.schema';
import { ProfileRepository } from '../../repositories/profile.repository';
import { ProfileHistoryRepository } from '../../repositories/profile-history.repository';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { ProfileReadModel } from '../../read-model/profile-read-model.service';
import { ExpiryIndex } from '../../read-model/expiry-index.service';
import { ProfileKeyIndex } from '../../search-index/profile-key-index.service';
import { TagRepository } from '../../repositories/tag.repository';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { PROFILE_APPLY_HOOKS, type ProfileApplyHook } from '../../services/profile-apply-hook';
import { ApplyProfileWritesCommand } from './apply-profile-writes.command';
import { WriteStarts } from './write-starts';
import { PROFILE_WIRE_FORMAT } from '../../mapping/profile-wire-format';
import { APPLY_PROFILE_WRITES } from '../../worker/profile-jobs';
import { profileKey, profileLeaseKey } from '../../keys';
import { ProfileSettings } from '../../profile-settings';
import { ProfileEventRecorder } from '../../services/profile-event-recorder.service';
import { ProfileEventNotifier } from '../../services/profile-event-notifier.service';
import { ProfileEraser } from '../../services/profile-eraser.service';
import { erasedProfile } from '../../domain/profile-erasure';

const LEASE_TTL_MS = 30000;
/** The lease is renewed this often while the work runs (a long write keeps it). */
const LEASE_RENEW_MS = LEASE_TTL_MS / 3;
/** A job that finds the profile's lease taken is put back after this, doubling, up to 5 s. */
const BUSY_DELAY_MS = 100;
const BUSY_DELAY_MAX_MS = 5000;

/** Thrown when this worker no longer holds the profile's lease: the queue retries. */
export class LeaseLostError extends Error {}

/** The profile lease one job holds while it applies writes. */
interface LeaseHold {
  name: string;
  token: string;
  /** Profile saves this job made (a save after its lease lapsed may have landed late). */
  saves: number;
}

/**
 * The worker's use case. Holding the profile's lease, it applies the write after the
 * profile's appliedSeq, one at a time, until there is none: each write is found by its
 * `_id` (`<client>|<profile>|<appliedSeq+1>`) and the profile is saved by `_id` with the
 * new appliedSeq, so every database command is addressed by `_id` and costs the same at
 * any data size. A write is applied exactly once in effect: after a crash the profile's
 * appliedSeq says which writes it holds (an applied write is never marked; its record only
 * says "failed" when the worker refused it, recorded before the save that moves past it).
 * The read model is marked dirty before each save and republished after it, so GET never
 * serves a profile older than one saved. The last WRITE_RECORDS_KEPT write records of the
 * profile are kept; each applied write deletes the one that falls out of that window.
 */
@CommandHandler(ApplyProfileWritesCommand)
export class ApplyProfileWritesHandler implements ICommandHandler<ApplyProfileWritesCommand> {
  private readonly logger = new Logger('ApplyProfileWrites');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly tags: TagRepository,
    private readonly lease: LeaseService,
    private readonly settings: ProfileSettings,
    private readonly configuration: ConfigurationReader,
    private readonly history: ProfileHistoryRepository,
    @Inject(PROFILE_APPLY_HOOKS) private readonly applyHooks: ProfileApplyHook[],
    private readonly rules: ProfileRules,
    private readonly readModel: ProfileReadModel,
    private readonly expiryIndex: ExpiryIndex,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly queue: JobQueue,
    private readonly starts: WriteStarts,
    private readonly crashPoints: CrashPoints,
    private readonly metrics: Metrics,
    private readonly eventRecorder: ProfileEventRecorder,
    private readonly eventNotifier: ProfileEventNotifier,
    private readonly eraser: ProfileEraser,
  ) {}

  async execute({
    clientId,
    profileId,
    seq,
    busy,
    lane,
  }: ApplyProfileWritesCommand): Promise<void> {
    // A job for a write the published profile already holds has nothing to do.
    if (seq !== undefined) {
      const published = await this.readModel.read(clientId, profileId);
      if (published && published.appliedSeq >= seq) return;
    }
    const name = profileLeaseKey(clientId, profileId);
    const token = await this.lease.acquire(name, LEASE_TTL_MS);
    if (!token) {
      // Another job is applying this profile (and may take this write with it). Waiting
      // here would hold a worker slot that other profiles and tenants need: the job goes
      // back to the queue, later, and ends.
      const delayMs = Math.min(BUSY_DELAY_MAX_MS, BUSY_DELAY_MS * 2 ** (busy ?? 0));
      await this.queue.enqueue(
        APPLY_PROFILE_WRITES,
        {
          clientId,
          profileId,
          ...(seq !== undefined ? { seq } : {}),
          busy: (busy ?? 0) + 1,
          ...(lane ? { lane } : {}),
        },
        { delayMs, lane },
      );
      return;
    }
    const hold: LeaseHold = { name, token, saves: 0 };
    const renewal = setInterval(
      () => void this.lease.extend(name, token, LEASE_TTL_MS).catch(() => undefined),
      LEASE_RENEW_MS,
    );
    renewal.unref();
    try {
      await this.applyPending(hold, clientId, profileId, seq);
    } catch (error) {
      // Another holder carries on; a late save of ours is healed below.
      if (!(error instanceof LeaseLostError)) throw error;
      this.logger.warn(String(error.message));
    } finally {
      clearInterval(renewal);
      const held = await this.lease.release(name, token).catch(() => true);
      if (!held && hold.saves > 0) await this.healLateSave(clientId, profileId);
    }
  }

  /**
   * This job's lease lapsed (a stall past LEASE_TTL_MS) while it saved: the embedded engine
   * has no conditional write by `_id`, so a save of ours may have landed after another
   * holder's later ones and taken the profile back to an older appliedSeq. Writes are applied
   * strictly in sequence from the stored appliedSeq and their records are kept
   * (WRITE_RECORDS_KEPT), so a new job re-applies whatever such a save undid; the read model
   * only ever takes newer versions, so GET never shows the older state.
   */
  private async healLateSave(clientId: string, profileId: number): Promise<void> {
    this.logger.warn(
      `lease of ${profileKey(clientId, profileId)} lapsed while this job saved: re-applying after its saves`,
    );
    await this.queue.enqueue(
      APPLY_PROFILE_WRITES,
      { clientId, profileId, lane: 'bulk' },
      { lane: 'bulk' },
    );
  }

  /**
   * Applies the writes after appliedSeq in order. A job that names its write (`target`)
   * stops after it and after the highest accepted sequence number the read model records,
   * without probing for one more (a write accepted later brings its own job); a job that
   * names none (the sweeper's) probes until no write follows.
   */
  private async applyPending(
    hold: LeaseHold,
    clientId: string,
    profileId: number,
    target?: number,
  ): Promise<void> {
    let profile = await this.profiles.findOne(clientId, profileId);
    // The api inserts a profile's shell before it accepts its create: no shell, no writes.
    if (!profile) return;
    let vocabulary: ProfileVocabulary | undefined;
    let applied = 0;
    let last = target;
    for (;;) {
      if (last !== undefined && profile.appliedSeq >= last) {
        const accepted = await this.readModel.acceptedSeq(clientId, profileId);
        if (accepted === null || accepted <= profile.appliedSeq) break;
        last = accepted;
      }
      const write = await this.writes.findSeq(clientId, profileId, profile.appliedSeq + 1);
      if (!write) break;
      vocabulary ??= await this.configuration.vocabulary(clientId);
      profile = await this.applyOne(hold, profile, write, vocabulary);
      applied++;
    }
    // Nothing to apply: still tell the event listeners and publish, which heals what a crash
    // or a Redis error cut short after the last save (readers meanwhile read the database:
    // markDirty).
    if (!applied) {
      await this.eventNotifier.savedAgain(profile);
      await this.publish(profile);
    }
  }

  private async applyOne(
    hold: LeaseHold,
    profile: Profile,
    write: ProfileWrite,
    vocabulary: ProfileVocabulary,
  ): Promise<Profile> {
    let next: Profile;
    let events: ProfileEvent[] = [];
    let failure = write.status === 'failed' ? (write.failureReason ?? 'Failed') : undefined;
    // Counted before the work: an attempt that hangs (no error to count) still counts.
    const starts = failure ? 0 : await this.starts.started(write);
    // An erasure is never given up (docs/data-subject.md): it is retried until it is saved.
    if (starts > this.settings.maxWriteAttempts && write.kind !== 'erase') {
      failure = `Gave up after ${starts - 1} attempts that did not finish`;
    }
    if (!failure) {
      try {
        // Consents stored under a consent type's former name take its current one first:
        // the write matches them, and history shows no change for a rename alone.
        const before = withCurrentProfileNames(profile, vocabulary);
        next = transitionProfile(before, write, vocabulary, PROFILE_WIRE_FORMAT, this.rules);
        refuseOverBounds(profile, next);
        // Derived from the data with every save: what the expiry job looks profiles up by.
        next.nextExpiryAt = this.rules.nextDue(next.data);
        if (write.kind === 'patch') await this.claimPatchedPairs(profile, next);
        // Follow-up writes of the rule modules (a do-not-contact mark on an added email),
        // queued behind this write before its save (a death after the save loses none).
        for (const hook of this.applyHooks) await hook.beforeSave(write, before.data, next.data);
        // An erasure removes what the profile holds before the save that commits it.
        if (write.kind === 'erase') await this.eraser.beforeSave(profile, write);
        // History is written before the save, without a transaction: readers only see
        // entries up to the profile's appliedSeq, so these stay invisible until the save
        // below. A crash before it leaves invisible entries that a retry rewrites
        // identically (same _ids, deterministic content).
        const described = describeWrite(before, next, write, this.rules);
        // Which entry last changed each item (contact decisions name it): saved with the profile.
        next.historyRefs = withHistoryRefs(profile.historyRefs, next.data, described.entries);
        // Consent receipts: consent and preference entries join the profile's hash chain
        // after the head it saved (no read); a retry links them identically.
        const chain = chainHistoryEntries(
          profile.historyChainHead,
          described.entries,
          this.rules.chainedCategories(),
        );
        if (chain.head) next.historyChainHead = chain.head;
        next.historyPages = await this.history.record(profile.historyPages ?? 0, chain.entries, {
          lastWriteFailed: profile.lastFailure?.seq === profile.appliedSeq,
        });
        // Its events the same way (docs/events.md, "Storage"): readable once saved. A delete
        // keeps only its own event (no personal data stays).
        const deletes = next.state === 'deleted' && profile.state !== 'deleted';
        if (deletes) await this.eventRecorder.eraseBefore(profile, write.seq);
        events = profileEvents(before, next, write, this.rules, described);
        next.eventLog = await this.eventRecorder.record(
          deletes ? { ...profile, eventLog: undefined } : profile,
          write,
          events,
        );
        // The erased tombstone keeps nothing but its ids, sequence numbers and event log.
        if (write.kind === 'erase') next = erasedProfile(next);
        await this.crashPoints.at(CRASH_POINTS.applyAfterHistory);
      } catch (error) {
        if (!(error instanceof PermanentWriteError))
          return this.countFailure(hold, profile, write, error);
        failure = error.message;
      }
    }
    try {
      if (failure) {
        // A failed write changes nothing, so it shows no history: drop entries an earlier
        // attempt recorded. Its outcome is recorded before the save that moves past it.
        await this.history.eraseWrite(
          write.clientId,
          write.profileId,
          profile.historyPages ?? 0,
          write.seq,
        );
        await this.eventRecorder.eraseWrite(write);
        if (write.status !== 'failed')
          await this.writes.markFailed(write._id, failure, {
            dropBody: profile.state === 'deleted',
          });
        next = this.skipped(profile, write, failure);
      }
      await this.save(hold, profile, next!, failure ? [] : events);
    } catch (error) {
      return this.countFailure(hold, profile, write, error);
    }
    if (failure) this.metrics.writeFailed(write.kind);
    else this.metrics.writeApplied(write.kind);
    await this.afterApply(profile, next!, write);
    return next!;
  }

  /** The profile with a refused write counted as handled, and its failure shown. */
  private skipped(profile: Profile, write: ProfileWrite, reason: string): Profile {
    return {
      ...profile,
      appliedSeq: write.seq,
      lastFailure: { seq: write.seq, reason, at: new Date() },
    };
  }

  /**
   * Saves by `_id` (the lease makes us the only writer). Derived data in Redis is prepared
   * before the save so that a crash never leaves a saved profile unseen by it (the read
   * model marked dirty, the expiry index holding its due time), and completed after it.
   */
  private async save(
    hold: LeaseHold,
    before: Profile,
    profile: Profile,
    events: ProfileEvent[] = [],
  ): Promise<void> {
    await this.keyIndex.beforeSave(before, profile);
    await this.expiryIndex.beforeSave(profile);
    await this.readModel.markDirty(profile.clientId, profile.profileId, profile.appliedSeq);
    // The embedded engine has no conditional write by `_id`, so the lease cannot fence the
    // save itself: renewing it right before refuses the save of a holder whose lease lapsed
    // (a stall past LEASE_TTL_MS). A stall between this renewal and the save is caught when
    // the job next renews or releases the lease (healLateSave).
    if (!(await this.lease.extend(hold.name, hold.token, LEASE_TTL_MS))) {
      throw new LeaseLostError(`the lease of ${profile._id} was lost before its save`);
    }
    await this.crashPoints.at(CRASH_POINTS.applyBeforeSave);
    await this.profiles.replace(profile);
    hold.saves++;
    await this.crashPoints.at(CRASH_POINTS.applyAfterSave);
    // Before the publication: a job retried after a death here finds the read model behind
    // and goes through applyPending, which tells the listeners again (savedAgain).
    await this.eventNotifier.saved(profile.clientId, profile.profileId, events);
    await this.publish(profile);
    await this.expiryIndex.afterSave(before, profile);
    await this.keyIndex.afterSave(before, profile);
  }

  /** A failed publication leaves the dirty mark: readers read the database meanwhile. */
  private async publish(profile: Profile): Promise<void> {
    try {
      await this.readModel.publish(profile);
    } catch (error) {
      this.logger.warn(`read model of ${profile._id} not published: ${String(error)}`);
    }
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

  /** Claims, stored write records and marks that the applied write made obsolete. */
  private async afterApply(before: Profile, after: Profile, write: ProfileWrite): Promise<void> {
    const { clientId, profileId } = write;
    if (after.state === 'deleted' && before.state !== 'deleted') {
      await this.alternateIds.releaseDropped(clientId, profileId, before.data?.AlternateIds, []);
      // A deleted profile keeps no personal data: the records still kept go too.
      const kept = this.settings.writeRecordsKept;
      for (let seq = write.seq; seq > Math.max(0, write.seq - kept); seq--)
        await this.writes.forget(clientId, profileId, seq);
      await this.history.eraseProfile(clientId, profileId, after.historyPages ?? 0);
      return;
    }
    // Retention: the record that falls out of the kept window (bodies included) goes.
    const expired = write.seq - this.settings.writeRecordsKept;
    if (expired >= 1) await this.writes.forget(clientId, profileId, expired);
    await this.alternateIds.releaseDropped(
      clientId,
      profileId,
      before.data?.AlternateIds,
      after.data?.AlternateIds,
    );
    // Tags enter the account's tag list when a profile first carries them.
    const known = new Set((before.data?.ProfileTags ?? []).map((tag) => tag.Key));
    for (const tag of after.data?.ProfileTags ?? []) {
      if (tag.IsActive !== false && !known.has(tag.Key)) {
        await this.tags.ensure(clientId, tag.Name, tag.Key);
      }
    }
  }

  /**
   * An unexpected error (database down, a bug): rethrown so the queue retries, until the
   * write has failed MAX_WRITE_ATTEMPTS times; then it is recorded as failed and skipped,
   * so one poisoned write cannot block the profile for ever.
   */
  private async countFailure(
    hold: LeaseHold,
    profile: Profile,
    write: ProfileWrite,
    error: unknown,
  ): Promise<never> {
    if (error instanceof LeaseLostError) throw error; // another holder carries on
    const attempts = await this.writes.countAttempt(write.clientId, write._id).catch(() => 0);
    if (attempts >= this.settings.maxWriteAttempts && write.kind !== 'erase') {
      const reason = `Gave up after ${attempts} attempts: ${error instanceof Error ? error.message : String(error)}`;
      await this.history.eraseWrite(
        write.clientId,
        write.profileId,
        profile.historyPages ?? 0,
        write.seq,
      );
      await this.eventRecorder.eraseWrite(write);
      await this.writes.markFailed(write._id, reason);
      await this.save(hold, profile, this.skipped(profile, write, reason));
      this.metrics.writeFailed(write.kind);
    }
    throw error;
  }
}

/**
 * A write whose result would break a list bound (a merge adding to a full list, a patch)
 * fails like a refused write. A profile already over a bound (stored before bounds
 * existed) is not locked by it.
 */
function refuseOverBounds(before: Profile, after: Profile): void {
  if (!after.data) return;
  const over = profileBoundViolations(after.data as never, { activeOnly: true });
  if (!over.length) return;
  if (before.data && profileBoundViolations(before.data as never, { activeOnly: true }).length)
    return;
  throw new PermanentWriteError(over.join('; '));
}
