import { Injectable } from '@nestjs/common';
import {
  BatchedInserts,
  type InsertOutcome,
  type TenantKey,
  TenantScopedModel,
  type TraceCarrier,
  InjectTenantScoped,
} from '@app/shared';
import type { Collection } from 'mongodb';
import {
  type WriteAttemptRef,
  type ImportFlags,
  ProfileWrite,
  ProfileWriteKind,
  type ProfileWriteStatus,
} from '../domain/profile-write.schema';
import type { CallerScope } from '../domain/profile-view';
import type { ImportRecordRef } from '../domain/import-marks';
import { writeKey } from '../keys';

/** Runs one insert of an acceptance (RequestWindow.attempt, for a request). */
export type InsertAttempt = (insert: () => Promise<InsertOutcome>) => Promise<InsertOutcome>;

/**
 * Where a write stands, given the profile's appliedSeq: a write is applied once the
 * profile holds its sequence number, unless the worker recorded it as failed. The worker
 * never marks applied writes, so the status costs no extra save.
 */
export function statusOf(write: ProfileWrite, appliedSeq: number): ProfileWriteStatus {
  if (write.status === 'failed') return 'failed';
  return write.seq <= appliedSeq ? 'applied' : 'pending';
}

/**
 * The `profile_writes` collection: accepted writes, their order and their outcome. Every
 * command addresses one write by `_id` (`<client>|<profile>|<seq>`): the writes of a
 * profile are reached from its appliedSeq (the next one is appliedSeq+1), never by a
 * filter, so no command grows with the collection.
 */
@Injectable()
export class ProfileWriteRepository {
  /** Acceptances arriving together share one engine command (group commit). */
  private readonly inserts: BatchedInserts<ProfileWrite>;

  constructor(
    @InjectTenantScoped(ProfileWrite) private readonly writes: TenantScopedModel<ProfileWrite>,
  ) {
    this.inserts = new BatchedInserts(
      () => this.writes.collection as unknown as Collection<ProfileWrite>,
    );
  }

  /**
   * Stores an accepted write under the first free sequence number from `fromSeq` on.
   * The unique `_id` makes each number taken once, so acceptance order is total.
   * `fromSeq` must lie above the profile's appliedSeq (records of applied writes are
   * deleted after a while, so a lower number could be free again).
   */
  async append(
    write: {
      clientId: string;
      profileId: number;
      fromSeq: number;
      /** When it was accepted (now, unless the caller took the time already). */
      acceptedAt?: Date;
      kind: ProfileWriteKind;
      body?: string;
      userId: string;
      scope?: CallerScope;
      importRecord?: ImportRecordRef;
      replace?: string[];
      importFlags?: ImportFlags;
      idempotency?: WriteAttemptRef;
      trace?: TraceCarrier;
    },
    /** Runs each insert (a request's window decides whether it may still commit). */
    attempt: InsertAttempt = (insert) => insert(),
  ): Promise<ProfileWrite> {
    for (let seq = Math.max(1, write.fromSeq); ; seq++) {
      const doc: ProfileWrite = {
        _id: writeKey(write.clientId, write.profileId, seq),
        clientId: write.clientId,
        profileId: write.profileId,
        seq,
        kind: write.kind,
        // Inserted by the driver, not mongoose: an undefined field would be stored as null.
        ...(write.body !== undefined ? { body: write.body } : {}),
        userId: write.userId,
        ...(write.scope ? { scope: write.scope } : {}),
        ...(write.importRecord ? { importRecord: write.importRecord } : {}),
        ...(write.replace?.length ? { replace: write.replace } : {}),
        ...(write.importFlags ? { importFlags: write.importFlags } : {}),
        ...(write.idempotency ? { idempotency: write.idempotency } : {}),
        ...(write.trace ? { trace: write.trace } : {}),
        acceptedAt: write.acceptedAt ?? new Date(),
        status: 'pending',
        attempts: 0,
      };
      if ((await attempt(() => this.insertOrResolve(doc))) === 'inserted') return doc;
    }
  }

  /**
   * Inserts `doc`; when the engine's answer was lost (a dropped connection: the insert may
   * or may not have been stored), reads its `_id` until the engine answers, and tells from
   * the stored record whether it is this one. An answer of "not stored" is never a guess.
   */
  private async insertOrResolve(doc: ProfileWrite): Promise<InsertOutcome> {
    try {
      return await this.inserts.insert(doc);
    } catch (error) {
      for (let delayMs = 50; ; delayMs = Math.min(1000, delayMs * 2)) {
        try {
          const stored = await this.writes.findById(doc._id).lean<ProfileWrite>().exec();
          if (!stored) throw error;
          const ours =
            stored.acceptedAt.getTime() === doc.acceptedAt.getTime() &&
            stored.userId === doc.userId &&
            stored.body === doc.body;
          return ours ? 'inserted' : 'duplicate';
        } catch (readError) {
          if (readError === error) throw error;
          await new Promise((resolve) => setTimeout(resolve, delayMs));
        }
      }
    }
  }

  async findById(clientId: string, id: TenantKey): Promise<ProfileWrite | null> {
    const write = await this.writes.findStoredById<ProfileWrite>(id);
    return write?.clientId === clientId ? write : null;
  }

  findSeq(clientId: string, profileId: number, seq: number): Promise<ProfileWrite | null> {
    return this.findById(clientId, writeKey(clientId, profileId, seq));
  }

  /** Whether a write follows appliedSeq (accepted, not applied yet): one `_id` lookup. */
  async hasPendingAfter(clientId: string, profileId: number, appliedSeq: number): Promise<boolean> {
    return (await this.findSeq(clientId, profileId, appliedSeq + 1)) !== null;
  }

  /**
   * The highest sequence number accepted for the profile, from its records alone (what
   * Redis lost cannot mislead it): the writes after appliedSeq are numbered without a gap
   * (each insert takes the first free number after the highest known), so the last one is
   * found by probing appliedSeq+1, +2, +4, ... until one is missing, then halving the
   * interval: about 2·log2(n) `_id` lookups for n writes waiting (0 waiting: one lookup).
   * A concurrent worker's retention may delete records it has applied meanwhile; the caller
   * reads the profile again and retries when its appliedSeq moved.
   */
  async lastAcceptedSeq(clientId: string, profileId: number, appliedSeq: number): Promise<number> {
    const exists = async (seq: number) => (await this.findSeq(clientId, profileId, seq)) !== null;
    let found = appliedSeq;
    let step = 1;
    while (await exists(found + step)) {
      found += step;
      step *= 2;
    }
    // found exists (or is appliedSeq), found + step does not: halve the gap between them.
    let missing = found + step;
    while (missing - found > 1) {
      const middle = found + Math.floor((missing - found) / 2);
      if (await exists(middle)) found = middle;
      else missing = middle;
    }
    return found;
  }

  /** Which of these profiles have a write after their appliedSeq (one `_id` lookup each). */
  async pendingAmong(
    profiles: { clientId: string; profileId: number; appliedSeq: number }[],
  ): Promise<Set<number>> {
    const pending = await Promise.all(
      profiles.map((p) => this.hasPendingAfter(p.clientId, p.profileId, p.appliedSeq)),
    );
    return new Set(profiles.filter((_, i) => pending[i]).map((p) => p.profileId));
  }

  /** The writes after appliedSeq in order, up to `limit` (one `_id` lookup each). */
  async pendingAfter(
    clientId: string,
    profileId: number,
    appliedSeq: number,
    limit: number,
  ): Promise<ProfileWrite[]> {
    const found: ProfileWrite[] = [];
    for (let seq = appliedSeq + 1; found.length < limit; seq++) {
      const write = await this.findSeq(clientId, profileId, seq);
      if (!write) break;
      found.push(write);
    }
    return found;
  }

  /** The records of writes `fromSeq` down to `fromSeq - limit + 1` that still exist. */
  async listDownFrom(
    clientId: string,
    profileId: number,
    fromSeq: number,
    limit: number,
  ): Promise<ProfileWrite[]> {
    const seqs: number[] = [];
    for (let seq = fromSeq; seq >= 1 && seqs.length < limit; seq--) seqs.push(seq);
    const found = await Promise.all(seqs.map((seq) => this.findSeq(clientId, profileId, seq)));
    return found.filter((write): write is ProfileWrite => write !== null);
  }

  /**
   * Records the outcome before the profile's appliedSeq moves past the write. `dropBody`: a
   * write refused because its profile was deleted or erased keeps no body (personal data).
   */
  async markFailed(
    id: TenantKey,
    reason: string,
    options: { dropBody?: boolean } = {},
  ): Promise<void> {
    await this.writes.updateOne(
      { _id: id },
      {
        $set: { status: 'failed', appliedAt: new Date(), failureReason: reason },
        ...(options.dropBody ? { $unset: { body: '' } } : {}),
      },
    );
  }

  /** Counts one failed attempt; returns the new count. */
  async countAttempt(clientId: string, id: TenantKey): Promise<number> {
    await this.writes.updateOne({ _id: id }, { $inc: { attempts: 1 } });
    const write = await this.findById(clientId, id);
    return write?.attempts ?? 0;
  }

  /** Deletes one write's record (retention, or a deleted profile). */
  async forget(clientId: string, profileId: number, seq: number): Promise<void> {
    await this.writes.deleteOne({ _id: writeKey(clientId, profileId, seq) });
  }
}
