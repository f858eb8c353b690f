import { Injectable, Logger } from '@nestjs/common';
import type {
  CountDelta,
  CountedStep,
  Profile,
  ProfileExtension,
  SavedProfile,
} from '@app/profiles';
import { JobQueue } from '@app/shared';
import { passDelta } from '../domain/report-summary';
import { ReportsSettings } from '../reports-settings';
import { REBUILD_REPORTS } from '../worker/report.job-definitions';
import { ReportCountStore } from './report-count-store.service';

/**
 * The counts kept by the worker's apply step (an extension of Profiles' apply, the
 * ProfileExtension port: load, prepare, beforeCommit, afterSave; docs/reports.md,
 * "Exactly once"). A pass saves, with the profile, its change of the
 * counts and any earlier change not known to be counted (Profile.countDeltas); after the
 * save one script counts them, each once by sequence number (ReportCountStore.apply). A
 * crash between the save and the count leaves the change on the profile: the next job of
 * the profile counts it (its first pass carries it, or the "nothing to apply" heal path).
 * What the counts already hold of a profile is read when its job loads it, in the same
 * turn as the profile, so a saved profile carries only changes that may be uncounted.
 * A tombstone (delete, erasure) keeps nothing of what the profile held: its pass is
 * counted right before the save instead (counted once: a retry finds it counted).
 */
@Injectable()
export class ApplyStepCounts implements ProfileExtension {
  private readonly logger = new Logger('Reports');
  /** The appliedSeq the counts held of a profile object when it was loaded or counted. */
  private readonly known = new WeakMap<Profile, number>();
  /** A tombstone about to be saved, and the changes to count before its save. */
  private readonly tombstones = new WeakMap<Profile, CountDelta[]>();

  constructor(
    private readonly countStore: ReportCountStore,
    private readonly settings: ReportsSettings,
    private readonly jobs: JobQueue,
  ) {}

  async load(
    clientId: string,
    profileId: number,
    read: () => Promise<Profile | null>,
  ): Promise<Profile | null> {
    if (!this.settings.enabled) return read();
    const [profile, mark] = await Promise.all([
      read(),
      // Not knowing only makes the pass carry changes that are counted already.
      this.countStore.marks(clientId, [profileId]).then(
        ([value]) => value,
        () => undefined,
      ),
    ]);
    if (profile && mark !== undefined) this.known.set(profile, mark);
    return profile;
  }

  prepare(start: Profile, end: Profile, steps: CountedStep[]): Profile {
    const { countDeltas: _carried, ...rest } = end;
    if (!this.settings.enabled) return rest;
    const deltas = this.uncounted(start);
    const delta = passDelta(start, end, steps);
    if (delta) deltas.push(delta);
    if (end.state === 'deleted') {
      if (deltas.length) this.tombstones.set(rest, deltas);
      return rest;
    }
    return deltas.length ? { ...rest, countDeltas: deltas } : rest;
  }

  async beforeCommit(clientId: string, profiles: Profile[]): Promise<void> {
    // A failure stops the save (SaveStage): the retry counts it, once.
    await this.count(
      clientId,
      profiles.flatMap((profile) => {
        const deltas = this.tombstones.get(profile);
        return deltas ? [{ profile, deltas }] : [];
      }),
    );
  }

  /** What the saved profiles carry that the counts may not hold yet, in one script. */
  async afterSave(clientId: string, saved: SavedProfile[]): Promise<void> {
    if (!this.settings.enabled) return;
    await this.count(
      clientId,
      saved.flatMap(({ profile }) => {
        const deltas = this.uncounted(profile);
        return deltas.length ? [{ profile, deltas }] : [];
      }),
    );
  }

  /** The changes the profile carries that the counts may not hold yet. */
  private uncounted(profile: Profile): CountDelta[] {
    const mark = this.known.get(profile) ?? -1;
    return (profile.countDeltas ?? []).filter((delta) => delta.to > mark);
  }

  private async count(
    clientId: string,
    items: { profile: Profile; deltas: CountDelta[] }[],
  ): Promise<void> {
    if (!items.length) return;
    const outcome = await this.countStore.apply(
      clientId,
      items.map(({ profile, deltas }) => ({ profileId: profile.profileId, deltas })),
    );
    for (const { profile, deltas } of items) this.known.set(profile, deltas[deltas.length - 1].to);
    if (outcome.drift) {
      this.logger.warn(
        `${outcome.drift} change(s) of profile(s) ${items.map(({ profile }) => profile.profileId).join(', ')} of ${clientId} could not be counted exactly: rebuild their counts`,
      );
    }
    if (outcome.needsRebuild) await this.requestRebuild(clientId);
  }

  /** The counts are missing (a new client, a Redis that lost its data): rebuilt once. */
  private async requestRebuild(clientId: string): Promise<void> {
    try {
      if (!(await this.countStore.claimRebuildRequest(clientId))) return;
      await this.jobs.enqueue(REBUILD_REPORTS, { clientId }, { lane: 'bulk' });
    } catch (error) {
      // The next change asks again once the request lapses.
      this.logger.warn(`rebuild of ${clientId}'s counts not queued: ${String(error)}`);
    }
  }
}
