import { Injectable, Logger } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  type CommittedAnswer,
  CRASH_POINTS,
  CrashPoints,
  currentTraceCarrier,
  deadlineError,
  type RequestWindow,
} from '@app/shared';
import type {
  ImportFlags,
  ProfileWrite,
  ProfileWriteKind,
  ProfileWriteStatus,
} from '../domain/profile-write.schema';
import type { CallerScope } from '../domain/profile-view';
import type { ImportRecordRef } from '../domain/import-marks';
import { ProfileReadModel } from '../read/profile-read-model.service';
import { PendingProfileRepository } from '../persistence/pending-profile.repository';
import { ProfileRepository } from '../persistence/profile.repository';
import { ProfileWriteRepository, statusOf } from '../persistence/profile-write.repository';
import { laneOfWrite } from './write-lanes';
import { ApplyJobScheduler } from './apply-job-scheduler';
import { profileKey } from '../keys';
import { ProfileSettings } from '../profile-settings';
import { UPDATE_STATUS } from '../wire/profile.mapper';
import { WriteKeys } from './write-keys.service';

/** Well inside REQUEST_DEADLINE_MS: a stalled Redis must not turn an accepted write into a 503. */
const ENQUEUE_TIMEOUT_MS = 1000;

/**
 * Accepts a validated profile write: marks its profile pending for the sweeper, records
 * the write in the database (the record that survives any crash), then enqueues a job that
 * names its profile. Every database command is addressed by `_id`: the write's
 * sequence number starts from what the read model knows (the highest accepted, or the
 * profile's appliedSeq) and the insert of `<client>|<profile>|<seq>` decides. It never writes the
 * profile document itself: the worker is its only writer (the embedded engine does not
 * make concurrent updates of one document atomic, so a second writer could undo a save). A lost job or a lost
 * Redis only delays the write: the worker's sweeper finds it again.
 */
@Injectable()
export class ProfileWriteIntake {
  private readonly logger = new Logger('ProfileWriteIntake');
  /** When this process inserted a profile's pending marker (see `mark`). */
  private readonly markedAt = new LRUCache<string, number>({ max: 100_000 });

  constructor(
    private readonly writes: ProfileWriteRepository,
    private readonly pending: PendingProfileRepository,
    private readonly profiles: ProfileRepository,
    private readonly readModel: ProfileReadModel,
    private readonly settings: ProfileSettings,
    private readonly crashPoints: CrashPoints,
    private readonly keys: WriteKeys,
    private readonly scheduler: ApplyJobScheduler,
  ) {}

  async accept(write: {
    clientId: string;
    profileId: number;
    kind: ProfileWriteKind;
    body?: object;
    userId: string;
    /** The writer's scope: an overwrite or patch keeps what lies outside it. */
    scope?: CallerScope;
    /**
     * What the caller knows of the profile's sequence numbers (ExistingProfiles); absent
     * for a new profile (its create is seq 1) or when the caller did not look it up.
     */
    known?: { appliedSeq: number; acceptedSeq: number };
    /** A bulk import's record (applied once) and the collections its merge replaces. */
    importRecord?: ImportRecordRef;
    replace?: string[];
    /** The import's flags, checked again when the write is applied. */
    importFlags?: ImportFlags;
    /** Applied in the bulk lane whatever the tenant's rate (a bulk import's writes). */
    background?: boolean;
    /**
     * The commit window of the HTTP request that makes the write (`@WriteWindow()`): a write
     * answered 503 never commits. Null outside a request: a worker job, a bulk import's run,
     * a scheduled write, a system write queued by the worker (nothing races them).
     */
    window: RequestWindow | null;
  }): Promise<ProfileWrite> {
    // The marker first: a process that dies after the write's insert leaves a write the
    // sweeper finds; one that dies before it leaves a marker the sweeper removes (no trace).
    await this.mark(write.clientId, write.profileId, new Date());
    await this.crashPoints.at(CRASH_POINTS.acceptAfterMarker);
    // The request's window (null for jobs and imports): an unkeyed write commits with its
    // insert; a keyed one with its attempt's fate, after it (WriteKeys).
    const { window } = write;
    const keyed = window?.keyed;
    const acceptedAt = new Date();
    const accepted = acceptedAnswer(write.profileId, acceptedAt, write.body);
    const placed = await this.writes.append(
      {
        clientId: write.clientId,
        profileId: write.profileId,
        fromSeq: (await this.lastKnownSeq(write)) + 1,
        acceptedAt,
        kind: write.kind,
        body: write.body === undefined ? undefined : JSON.stringify(write.body),
        userId: write.userId,
        scope: write.scope,
        importRecord: write.importRecord,
        replace: write.replace,
        importFlags: write.importFlags,
        idempotency: keyed
          ? { key: keyed.key, attempt: keyed.attempt, bucket: keyed.bucket }
          : undefined,
        // Tracing on: the apply span links to it (docs/operations.md, "Tracing").
        trace: currentTraceCarrier(),
      },
      window
        ? (insert) =>
            window.attempt(insert, (outcome) => !keyed && outcome === 'inserted', accepted)
        : undefined,
    );
    // Never below what the worker applied (a stale read of the profile's sequence numbers).
    const stored = await this.aboveApplied(write, placed, window, keyed !== undefined);
    await this.crashPoints.at(CRASH_POINTS.acceptAfterWriteInsert);
    if (window && keyed) {
      const won = await window.attempt(
        () => this.keys.commit(write.clientId, keyed, stored, accepted),
        (committed) => committed,
        accepted,
      );
      // Voided first (its window passed while this request stalled): it never applies.
      if (!won) throw deadlineError(window.deadlineMs);
      await this.crashPoints.at(CRASH_POINTS.acceptAfterKeyCommit);
    }
    await this.schedule(write, stored);
    return stored;
  }

  /**
   * A write placed at or below the profile's appliedSeq would never be applied: its number
   * was free only because the record of an applied write there was deleted (retention),
   * which happens when the caller's idea of the profile's sequence numbers was stale (a
   * read model rebuilt while the worker raced ahead, Redis that lost its data). The read
   * model's entry, asked while this write is recorded in it (the same Redis command),
   * tells how far the worker got; only when it is at or past this write, or has no entry,
   * the profile's appliedSeq is read, and a write below it is placed again after it (its
   * misplaced record deleted). The request has not answered yet: it answers the new place.
   */
  private async aboveApplied(
    write: { clientId: string; profileId: number; kind: ProfileWriteKind },
    placed: ProfileWrite,
    window: RequestWindow | null,
    keyed: boolean,
  ): Promise<ProfileWrite> {
    let stored = placed;
    for (;;) {
      let ahead: number | null = null;
      try {
        // Redis down: skipped rather than waited for (GET reads the database meanwhile),
        // and recorded once Redis is back (a Redis back with its data must not say Complete).
        if (this.readModel.available)
          ahead = await this.readModel.noteAcceptedAhead(
            write.clientId,
            write.profileId,
            stored.seq,
          );
        else this.readModel.oweAccepted(write.clientId, write.profileId, stored.seq);
      } catch (error) {
        this.readModel.oweAccepted(write.clientId, write.profileId, stored.seq);
        this.logger.warn(`could not record ${stored._id} in the read model: ${String(error)}`);
      }
      // A new profile's create is its seq 1: nothing can lie below it.
      if (write.kind === 'create' || (ahead !== null && ahead < stored.seq)) return stored;
      const applied = (await this.profiles.findOne(write.clientId, write.profileId))?.appliedSeq;
      if (applied === undefined || applied < stored.seq) return stored;
      this.logger.warn(
        `${stored._id} was placed at or below the applied seq ${applied}: placed again after it`,
      );
      await this.writes.forget(write.clientId, write.profileId, stored.seq);
      const { _id: _, seq: __, ...again } = stored;
      stored = await this.writes.append(
        { ...again, fromSeq: applied + 1 },
        window
          ? (insert) => window.attempt(insert, (outcome) => !keyed && outcome === 'inserted')
          : undefined,
      );
    }
  }

  /**
   * Has the worker apply the profile's writes. The write is already recorded: a slow or
   * absent Redis must not hold the answer (the sweeper carries what this misses).
   */
  private async schedule(
    write: { clientId: string; profileId: number; userId: string; background?: boolean },
    stored: ProfileWrite,
  ): Promise<void> {
    try {
      // At most one queued job per profile (ApplyJobScheduler): a write whose profile has
      // one is applied by it, since acceptedSeq was raised above.
      await this.scheduler.schedule({
        clientId: write.clientId,
        profileId: write.profileId,
        seq: stored.seq,
        lane: laneOfWrite(write),
        timeoutMs: ENQUEUE_TIMEOUT_MS,
      });
    } catch (error) {
      this.logger.warn(
        `enqueue failed for ${stored._id}; the sweeper will carry it: ${String(error)}`,
      );
    }
  }

  /**
   * Marks the profile pending, before the write's insert. The sweeper leaves a marker alone
   * until it is older than STALE_WRITE_MS (far longer than an acceptance takes), then
   * removes it only once it found no write after appliedSeq, and looks again after the
   * removal (see SweepPendingWrites): so the write inserted next is always covered. A
   * marker this process inserted stands for at least STALE_WRITE_MS: within half of that (a
   * margin for clock differences between processes) a further write of the profile needs
   * no insert, which spared a second engine command (a duplicate-key error) for each write
   * of a busy profile.
   */
  private async mark(clientId: string, profileId: number, since: Date): Promise<void> {
    const key = profileKey(clientId, profileId);
    const inserted = this.markedAt.get(key);
    if (inserted !== undefined && Date.now() - inserted < this.settings.staleWriteMs / 2) return;
    if ((await this.pending.mark(clientId, profileId, since)) === 'inserted') {
      this.markedAt.set(key, since.getTime());
    }
  }

  /**
   * The highest sequence number known to be taken, from the caller's or the read model's
   * knowledge, else from the profile document. Never below the profile's appliedSeq: the
   * records of applied writes are deleted after a while, so a lower number could be free.
   */
  private async lastKnownSeq(write: {
    clientId: string;
    profileId: number;
    kind: ProfileWriteKind;
    known?: { appliedSeq: number; acceptedSeq: number };
  }): Promise<number> {
    if (write.known) return Math.max(write.known.appliedSeq, write.known.acceptedSeq);
    if (write.kind === 'create') return 0;
    const cached = await this.readModel.read(write.clientId, write.profileId);
    if (cached) return Math.max(cached.appliedSeq, cached.acceptedSeq);
    return (await this.profiles.findOne(write.clientId, write.profileId))?.appliedSeq ?? 0;
  }

  /**
   * Waits until the worker has applied (or refused) the write, up to `timeoutMs`: polls the
   * profile's appliedSeq (the read model, else the profile by `_id`), then reads the write
   * once to tell applied from failed.
   */
  async waitFor(write: ProfileWrite, timeoutMs: number): Promise<ProfileWriteStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const appliedSeq = await this.appliedSeqOf(write.clientId, write.profileId);
      if (appliedSeq >= write.seq) {
        const stored = await this.writes.findById(write.clientId, write._id);
        // A record already deleted (the profile was deleted, or retention) was applied.
        return stored ? statusOf(stored, appliedSeq) : 'applied';
      }
      if (Date.now() >= deadline) return 'pending';
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  private async appliedSeqOf(clientId: string, profileId: number): Promise<number> {
    const cached = await this.readModel.read(clientId, profileId);
    if (cached) return cached.appliedSeq;
    return (await this.profiles.findOne(clientId, profileId))?.appliedSeq ?? 0;
  }
}

/**
 * What a request whose write committed answers when its route cannot answer itself (an
 * error after the commit, a stall past its deadline, a resend after its process died): the
 * 202 submission result of the committed write.
 */
function acceptedAnswer(
  profileId: number,
  acceptedAt: Date,
  body: object | undefined,
): CommittedAnswer {
  const pairs = (
    body as
      | { AlternateIds?: { AlternateId?: string; AlternateIdType?: string; IsActive?: boolean }[] }
      | undefined
  )?.AlternateIds;
  const pair = Array.isArray(pairs) ? pairs.find((p) => p?.IsActive !== false) : undefined;
  return {
    status: 202,
    body: {
      AlternateId: pair?.AlternateId ?? null,
      AlternateIdType: pair?.AlternateIdType ?? null,
      ProfileId: profileId,
      UpdateStatus: UPDATE_STATUS.pending,
      SubmittedUtcTime: acceptedAt.toISOString(),
    },
    headers: {},
  };
}
