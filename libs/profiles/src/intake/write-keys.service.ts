import { Injectable } from '@nestjs/common';
import {
  type CommittedAnswer,
  type DurableIdempotency,
  type KeyedAttempt,
  type KeyedStart,
  type StoredKeyAnswer,
  Settings,
} from '@app/shared';
import type { ProfileWrite, WriteAttemptRef } from '../domain/profile-write.schema';
import { WriteKeyRepository } from '../persistence/write-key.repository';

/** Added to a request's deadline: clocks of two processes may differ by this much. */
const CLOCK_MARGIN_MS = 1000;

/**
 * `Idempotency-Key` of queued profile writes, tied to the write's durable record. A request
 * with a key runs as attempt n of the key (an insert claims it); its write record names the
 * attempt; the attempt commits by inserting its fate "committed" (after the write's insert,
 * before its 202), and is voided by inserting "void" (its request answered an error, or it
 * could no longer commit: a resend or the worker decides that once its window passed). The
 * first insert of the fate wins, so a write is applied only if its attempt committed, and a
 * resend after any crash finds the committed answer or runs attempt n+1 (docs/api.md,
 * "Idempotency-Key").
 */
@Injectable()
export class WriteKeys implements DurableIdempotency {
  private readonly ttlMs: number;

  constructor(
    private readonly keys: WriteKeyRepository,
    private readonly settings: Settings,
  ) {
    this.ttlMs = settings.idempotencyTtlSeconds * 1000;
  }

  async begin(
    clientId: string,
    key: string,
    fingerprint: string,
    windowMs: number,
    now = new Date(),
  ): Promise<KeyedStart> {
    const current = Math.floor(now.getTime() / this.ttlMs);
    void this.keys.prune(current);
    // The key's attempts live in the period of its first attempt (this one or the last).
    let bucket = current;
    let first = await this.keys.findAttempt(bucket, this.keys.attemptId(clientId, key, 1));
    if (!first) {
      first = await this.keys.findAttempt(current - 1, this.keys.attemptId(clientId, key, 1));
      if (first && first.startedAt.getTime() + this.ttlMs > now.getTime()) bucket = current - 1;
      else first = null;
    }
    if (first && first.fingerprint !== fingerprint) return { kind: 'mismatch' };
    for (let attempt = 1; ; attempt++) {
      const id = this.keys.attemptId(clientId, key, attempt);
      const claim = { _id: id, fingerprint, startedAt: now, windowMs: windowMs + CLOCK_MARGIN_MS };
      const found = attempt === 1 && first ? first : await this.keys.findAttempt(bucket, id);
      if (!found) {
        if (await this.keys.insert(bucket, claim))
          return { kind: 'run', attempt: { key, attempt, bucket, fingerprint } };
        return { kind: 'running' }; // a simultaneous resend claimed it
      }
      const fateId = this.keys.fateId(clientId, key, attempt);
      let fate = await this.keys.findFate(bucket, fateId);
      if (!fate) {
        // Its request may still commit (alive, or stalled with its commit in flight).
        if (found.startedAt.getTime() + found.windowMs > now.getTime()) return { kind: 'running' };
        if (!(await this.keys.insert(bucket, { _id: fateId, outcome: 'void', at: now })))
          fate = await this.keys.findFate(bucket, fateId);
      }
      if (fate?.outcome === 'committed') {
        if (fate.answer) return { kind: 'replay', answer: fate.answer };
        // Committed, answer not kept yet: still answering, or died before it could.
        if (found.startedAt.getTime() + found.windowMs > now.getTime()) return { kind: 'running' };
        return { kind: 'replay', answer: fate.accepted! };
      }
      // Void: the next attempt runs.
    }
  }

  /**
   * Commits the attempt whose write record is `write`: true when this request's commit won,
   * false when the attempt had been voided first (the write will never apply).
   */
  async commit(
    clientId: string,
    attempt: KeyedAttempt,
    write: ProfileWrite,
    accepted: CommittedAnswer,
    now = new Date(),
  ): Promise<boolean> {
    return this.keys.insert(attempt.bucket, {
      _id: this.keys.fateId(clientId, attempt.key, attempt.attempt),
      outcome: 'committed',
      at: now,
      clientId,
      profileId: write.profileId,
      writeId: write._id,
      accepted,
    });
  }

  async keep(clientId: string, attempt: KeyedAttempt, answer: StoredKeyAnswer): Promise<void> {
    await this.keys.keepAnswer(
      attempt.bucket,
      this.keys.fateId(clientId, attempt.key, attempt.attempt),
      answer,
    );
  }

  async abandon(clientId: string, attempt: KeyedAttempt): Promise<void> {
    await this.keys.insert(attempt.bucket, {
      _id: this.keys.fateId(clientId, attempt.key, attempt.attempt),
      outcome: 'void',
      at: new Date(),
    });
  }

  /** Forgets the kept answers naming the profile (its erasure). */
  forgetProfile(clientId: string, profileId: number, now = new Date()): Promise<number> {
    return this.keys.forgetProfile(Math.floor(now.getTime() / this.ttlMs), clientId, profileId);
  }

  /**
   * For the worker: whether the keyed write `write` committed ('committed'), never will
   * ('void'), or may still (`undefined`, until its window passed; then it is voided here).
   */
  async fateOf(
    write: ProfileWrite & { idempotency: WriteAttemptRef },
    windowMs: number,
    now = new Date(),
  ): Promise<'committed' | 'void' | { waitMs: number }> {
    const { key, attempt, bucket } = write.idempotency;
    const id = this.keys.fateId(write.clientId, key, attempt);
    const fate = await this.keys.findFate(bucket, id);
    if (fate) return fate.outcome;
    const waitMs = write.acceptedAt.getTime() + windowMs + CLOCK_MARGIN_MS - now.getTime();
    if (waitMs > 0) return { waitMs };
    if (await this.keys.insert(bucket, { _id: id, outcome: 'void', at: now })) return 'void';
    return (await this.keys.findFate(bucket, id))?.outcome ?? 'void';
  }
}
