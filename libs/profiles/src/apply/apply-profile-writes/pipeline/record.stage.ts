import { Injectable } from '@nestjs/common';
import { CRASH_POINTS, CrashPoints, type TenantKey } from '@app/shared';
import type { ProfileEvent } from '../../../domain/profile-events';
import type { ProfileHistory } from '../../../domain/profile-history.schema';
import type { Profile } from '../../../domain/profile.schema';
import { ProfileEventRepository } from '../../../persistence/profile-event.repository';
import { ProfileHistoryRepository } from '../../../persistence/profile-history.repository';
import { ProfileWriteRepository } from '../../../persistence/profile-write.repository';
import type { PassStep } from './fold';

/** A new profile's create (seq 1) as the record stage stores it: its history pages, its events. */
export interface RecordedCreate {
  profile: Profile;
  pages: Array<{ _id: TenantKey; entries: ProfileHistory[] }>;
  events: ProfileEvent[];
}

/**
 * Stages 3 and 4, history and events, with the refused writes' outcomes: everything a
 * pass's save makes readable, written before it without a transaction. Readers only see
 * history entries and events of writes up to the profile's appliedSeq, so these stay
 * invisible until the save; a crash before it leaves invisible entries that a retry
 * rewrites identically (same `_id`s, deterministic content). A refused write's outcome is
 * recorded on its record before the save that moves past it, and an earlier attempt's
 * history and events of it go (a failed write shows none).
 *
 * Two entries, one per save mode (SaveStage): `run` for a pass over a stored profile (the
 * pages it extends, replaced whole), `recordCreates` for new profiles inserted together (a
 * bulk import's batch: every page and event document new, one insert each for the batch).
 */
@Injectable()
export class RecordStage {
  constructor(
    private readonly records: ProfileWriteRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly events: ProfileEventRepository,
    private readonly crashPoints: CrashPoints,
  ) {}

  /** `start`: the profile as the pass found it; `end`: as its steps left it. Returns what to save. */
  async run(start: Profile, end: Profile, steps: PassStep[]): Promise<Profile> {
    const { clientId, profileId } = start;
    await Promise.all(
      steps.map((step) =>
        step.failure !== undefined && step.write.status !== 'failed'
          ? this.records.markFailed(step.write._id, step.failure, {
              dropBody: step.before.state === 'deleted',
            })
          : undefined,
      ),
    );
    const applied = steps.filter((step) => step.folded);
    const counted = await this.history.recordPass(
      clientId,
      profileId,
      { pages: start.historyPages ?? 0, tail: trustedTail(start) },
      {
        fromSeq: steps[0].write.seq,
        toSeq: steps[steps.length - 1].write.seq,
        entries: applied.flatMap((step) => step.folded!.entries),
        erases: steps.some((step) => step.failure !== undefined),
      },
      { lastWriteFailed: start.lastFailure?.seq === start.appliedSeq },
    );
    // Events: stored per write that has some, unless a later write of the pass drops them
    // again (the event log's bounds, a delete); refused writes' earlier ones go.
    const erased = new Set<number>();
    const stored = new Map<number, ProfileEvent[]>();
    for (const step of steps) {
      if (step.folded) {
        if (step.folded.events.length) stored.set(step.write.seq, step.folded.events);
        for (const seq of step.folded.erasedEvents) erased.add(seq);
      } else erased.add(step.write.seq);
    }
    for (const seq of erased) stored.delete(seq);
    await this.events.recordMany(
      clientId,
      profileId,
      [...stored].map(([seq, events]) => ({ seq, events })),
    );
    await this.events.erase(clientId, profileId, [...erased]);
    if (applied.length) await this.crashPoints.at(CRASH_POINTS.applyAfterHistory);
    // The erased tombstone counts no history (erasedProfile); anything else the pages saved.
    const last = steps[steps.length - 1];
    if (last.folded && last.write.kind === 'erase') return end;
    const { historyTail: _unknown, ...rest } = end;
    return {
      ...rest,
      historyPages: counted.pages,
      ...(counted.tail !== undefined
        ? { historyTail: { seq: end.appliedSeq, entries: counted.tail } }
        : {}),
    };
  }

  /**
   * The history pages and events of new profiles of one client, each its create (seq 1),
   * before their insert: one unordered insert of pages and one of events for them all,
   * unread until a profile counts them (a page of an id that ends up someone else's is never
   * read, and its owner's first write replaces it).
   */
  async recordCreates(clientId: string, creates: RecordedCreate[]): Promise<void> {
    await this.history.insertPages(creates.flatMap((create) => create.pages));
    await this.events.insertMany(
      creates
        .filter(({ events }) => events.length)
        .map(({ profile, events }) => ({ clientId, profileId: profile.profileId, seq: 1, events })),
    );
  }

  /** What `recordCreates` stored of a profile whose insert is undone (SaveStage.insertCreates). */
  async eraseCreate(profile: Profile): Promise<void> {
    await this.history.eraseProfile(profile.clientId, profile.profileId, profile.historyPages ?? 0);
    await this.events.erase(profile.clientId, profile.profileId, [1]);
  }
}

/** The last page's saved count, when the save that wrote it is the profile's last. */
export function trustedTail(profile: Profile): number | undefined {
  const tail = profile.historyTail;
  return tail && tail.seq === profile.appliedSeq ? tail.entries : undefined;
}
