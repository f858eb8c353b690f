import { Injectable } from '@nestjs/common';
import { Settings } from '@app/shared';
import type { ProfileWrite } from '../domain/profile-write.schema';
import { WriteKeys } from '../intake/write-keys.service';

/** What the worker does with a write whose turn came (see WriteFates.resolve). */
export type WriteFate =
  /** Apply it (a write without an Idempotency-Key always; a keyed one whose attempt committed). */
  | { kind: 'apply' }
  /** Skip it like a refused write: its keyed attempt never committed and now never will. */
  | { kind: 'void'; reason: string }
  /** Its keyed attempt may still commit: stop before it and look again after `delayMs`. */
  | { kind: 'wait'; delayMs: number };

const APPLY: WriteFate = { kind: 'apply' };
const VOID: WriteFate = {
  kind: 'void',
  reason: 'Not applied: its request (Idempotency-Key attempt) was not answered as accepted',
};
/** The shortest wait before a keyed write is looked at again. */
const MIN_WAIT_MS = 50;

/**
 * Decides, for the worker, whether a write recorded by a request with an `Idempotency-Key`
 * may be applied: such a record is written before its request commits, and only a committed
 * attempt counts (WriteKeys; docs/architecture.md, "Exactly once"). Writes without a key are
 * committed by their insert and cost nothing here.
 */
@Injectable()
export class WriteFates {
  /** The longest a request may still commit after its write's insert: the longest deadline. */
  private readonly windowMs: number;

  constructor(
    private readonly keys: WriteKeys,
    settings: Settings,
  ) {
    this.windowMs = settings.requestDeadlineMs + settings.syncWriteTimeoutMs;
  }

  async resolve(write: ProfileWrite, now: Date = new Date()): Promise<WriteFate> {
    if (!write.idempotency) return APPLY;
    const fate = await this.keys.fateOf(
      { ...write, idempotency: write.idempotency },
      this.windowMs,
      now,
    );
    if (fate === 'committed') return APPLY;
    if (fate === 'void') return VOID;
    return { kind: 'wait', delayMs: Math.max(MIN_WAIT_MS, fate.waitMs) };
  }
}
