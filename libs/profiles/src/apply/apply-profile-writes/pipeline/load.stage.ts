import { Injectable } from '@nestjs/common';
import type { ProfileWrite } from '../../../domain/profile-write.schema';
import type { Profile } from '../../../domain/profile.schema';
import { ProfileSettings } from '../../../profile-settings';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { ProfileWriteRepository } from '../../../persistence/profile-write.repository';
import { WriteFates } from '../../write-fates.service';
import { ProfileMergeApply } from '../../../merge/profile-merge-apply.service';
import { WriteStarts } from '../write-starts';

/** Write records read at once (each by `_id`) when the pass knows they were accepted. */
const READ_CHUNK = 25;

/** A write the pass takes, and its failure when it is already decided before the fold. */
export interface PendingWrite {
  write: ProfileWrite;
  /** Recorded failed by an earlier attempt, given up, or void (its keyed request never committed). */
  failure?: string;
}

/** The writes of one pass, in sequence order from the profile's appliedSeq + 1. */
export interface LoadedWrites {
  writes: PendingWrite[];
  /**
   * The pass ends before a keyed write whose request may still commit (WriteFates): the
   * profile's job runs again after this many ms.
   */
  waitMs?: number;
}

/**
 * Stage 1, load: the profile by `_id` (once per job, then carried from pass to pass) and
 * the pass's writes `appliedSeq + 1 ...`, each by `_id`, read together when the read model
 * says they were accepted. Each write's fate is asked before it is taken (a write without
 * an Idempotency-Key costs nothing there), and the pass's writes are counted as started in
 * one round trip. A pass whose first write was started before (an attempt that hung or
 * died) takes that write alone, and a pass stops before any other write started before:
 * so the starts of a write that keeps hanging are its own, and it is given up after
 * MAX_WRITE_ATTEMPTS of them while the writes around it go on.
 */
@Injectable()
export class LoadStage {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly records: ProfileWriteRepository,
    private readonly fates: WriteFates,
    private readonly starts: WriteStarts,
    private readonly settings: ProfileSettings,
    private readonly merges: ProfileMergeApply,
  ) {}

  profile(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findOne(clientId, profileId);
  }

  /**
   * Up to `max` writes after the profile's appliedSeq: those up to `upTo` (known accepted)
   * read together; with `probe`, further ones one by one until none follows.
   */
  async writes(
    profile: Profile,
    window: { upTo: number; probe: boolean; max: number },
  ): Promise<LoadedWrites> {
    const found = await this.read(profile, window);
    const writes: PendingWrite[] = [];
    const now = new Date();
    let waitMs: number | undefined;
    for (const write of found) {
      if (write.status === 'failed') {
        writes.push({ write, failure: write.failureReason ?? 'Failed' });
        continue;
      }
      const fate = await this.fates.resolve(write, now);
      if (fate.kind === 'wait') {
        waitMs = fate.delayMs;
        break;
      }
      // A merge's absorb waits for the absorbed profile's step to be saved.
      const absorbWait = fate.kind === 'void' ? undefined : await this.merges.absorbWait(write);
      if (absorbWait !== undefined) {
        waitMs = absorbWait;
        break;
      }
      writes.push(fate.kind === 'void' ? { write, failure: fate.reason } : { write });
    }
    return { writes: await this.countStarts(writes), ...(waitMs !== undefined ? { waitMs } : {}) };
  }

  private async read(
    profile: Profile,
    { upTo, probe, max }: { upTo: number; probe: boolean; max: number },
  ): Promise<ProfileWrite[]> {
    const { clientId, profileId, appliedSeq } = profile;
    const found: ProfileWrite[] = [];
    const known = Math.min(max, upTo - appliedSeq);
    for (let at = 0; at < known; at += READ_CHUNK) {
      const seqs = Array.from(
        { length: Math.min(READ_CHUNK, known - at) },
        (_, k) => appliedSeq + 1 + at + k,
      );
      const chunk = await Promise.all(
        seqs.map((seq) => this.records.findSeq(clientId, profileId, seq)),
      );
      for (const write of chunk) {
        if (!write) return found;
        found.push(write);
      }
    }
    while (probe && found.length < max) {
      const write = await this.records.findSeq(clientId, profileId, appliedSeq + found.length + 1);
      if (!write) break;
      found.push(write);
    }
    return found;
  }

  /** Counts the starts (see the class comment) and cuts the pass where they say. */
  private async countStarts(writes: PendingWrite[]): Promise<PendingWrite[]> {
    const counted = writes.filter((pending) => !pending.failure);
    const starts = new Map<PendingWrite, number>();
    (await this.starts.startedAll(counted.map(({ write }) => write))).forEach((count, k) =>
      starts.set(counted[k], count),
    );
    const first = writes[0];
    let end = writes.length;
    if (first && (starts.get(first) ?? 0) > 1) end = 1;
    else {
      const again = writes.findIndex((pending, k) => k > 0 && (starts.get(pending) ?? 0) > 1);
      if (again > 0) end = again;
    }
    await this.starts.notStarted(
      writes
        .slice(end)
        .filter((pending) => starts.has(pending))
        .map(({ write }) => write),
    );
    const taken = writes.slice(0, end);
    const firstStarts = first ? (starts.get(first) ?? 0) : 0;
    // An erasure is never given up (docs/data-subject.md): it is retried until it is saved.
    if (first && firstStarts > this.settings.maxWriteAttempts && first.write.kind !== 'erase') {
      taken[0] = {
        ...first,
        failure: `Gave up after ${firstStarts - 1} attempts that did not finish`,
      };
    }
    return taken;
  }
}
