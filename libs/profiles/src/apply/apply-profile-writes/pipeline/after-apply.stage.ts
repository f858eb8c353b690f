import { Injectable } from '@nestjs/common';
import { Metrics } from '@app/shared';
import type { Profile } from '../../../domain/profile.schema';
import { ProfileSettings } from '../../../profile-settings';
import { ProfileHistoryRepository } from '../../../persistence/profile-history.repository';
import { ProfileWriteRepository } from '../../../persistence/profile-write.repository';
import { TagRepository } from '../../../persistence/tag.repository';
import { AlternateIdClaims } from '../../../persistence/alternate-id-claims.service';
import { ProfileMergeApply } from '../../../merge/profile-merge-apply.service';
import type { PassStep } from './fold';

/** Retention deletes sent at once (each by `_id`). */
const FORGET_CHUNK = 25;

/**
 * Stage 7, after the save: what the pass's writes made obsolete. The write records that
 * fall out of the kept window (WRITE_RECORDS_KEPT) go, the alternate ids the profile no
 * longer holds are released (the pass's start against its end: a pair a write drops and a
 * later one takes back stays claimed), and tags enter the account's tag list when a
 * profile first carries them (any write of the pass). A delete (always the last write of
 * its pass) takes the profile's records and history with it. `afterCreates` is the same
 * stage for new profiles inserted together (a bulk import's batch): their writes counted,
 * their tags entered (no record, no alternate id to release).
 */
@Injectable()
export class AfterApplyStage {
  constructor(
    private readonly records: ProfileWriteRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly tags: TagRepository,
    private readonly settings: ProfileSettings,
    private readonly metrics: Metrics,
    private readonly merges: ProfileMergeApply,
  ) {}

  async run(before: Profile, after: Profile, steps: PassStep[]): Promise<void> {
    for (const step of steps) {
      if (step.failure !== undefined) this.metrics.writeFailed(step.write.kind);
      else this.metrics.writeApplied(step.write.kind);
    }
    // Merge records: a refused merge leaves none; an absorbed profile's merge is done.
    await this.merges.afterSave(steps);
    const { clientId, profileId } = before;
    const kept = this.settings.writeRecordsKept;
    const lastSeq = steps[steps.length - 1].write.seq;
    if (after.state === 'deleted' && before.state !== 'deleted') {
      await this.alternateIds.releaseDropped(clientId, profileId, before.data?.AlternateIds, []);
      // A deleted profile keeps no personal data: the records still kept go too.
      await this.forget(clientId, profileId, Math.max(1, steps[0].write.seq - kept), lastSeq);
      await this.history.eraseProfile(clientId, profileId, after.historyPages ?? 0);
      return;
    }
    // Retention: the records that fall out of the kept window (bodies included) go.
    await this.forget(clientId, profileId, Math.max(1, steps[0].write.seq - kept), lastSeq - kept);
    await this.alternateIds.releaseDropped(
      clientId,
      profileId,
      before.data?.AlternateIds,
      after.data?.AlternateIds,
    );
    // Tags enter the account's tag list when a profile first carries them.
    const known = new Set((before.data?.ProfileTags ?? []).map((tag) => tag.Key));
    for (const step of steps) await this.enterTags(clientId, step.folded?.next, known);
  }

  /**
   * After new profiles of one client were saved together (their create, seq 1): their
   * writes counted applied and their tags entered, per profile concurrently; `known`: the
   * tags entered already by the batch (shared by its slices).
   */
  async afterCreates(profiles: Profile[], known: Set<string>): Promise<void> {
    await Promise.all(
      profiles.map(async (profile) => {
        await this.enterTags(profile.clientId, profile, known);
        this.metrics.writeApplied('create');
      }),
    );
  }

  /** The tags `profile` carries that are not `known` yet enter the account's tag list. */
  private async enterTags(
    clientId: string,
    profile: Profile | undefined,
    known: Set<string>,
  ): Promise<void> {
    for (const tag of profile?.data?.ProfileTags ?? []) {
      if (tag.IsActive === false || known.has(tag.Key)) continue;
      known.add(tag.Key);
      await this.tags.ensure(clientId, tag.Name, tag.Key);
    }
  }

  /** Deletes the records of writes `from` to `to` (by `_id`; one already gone is no error). */
  private async forget(clientId: string, profileId: number, from: number, to: number) {
    for (let seq = from; seq <= to; seq += FORGET_CHUNK) {
      const seqs = Array.from({ length: Math.min(FORGET_CHUNK, to - seq + 1) }, (_, k) => seq + k);
      await Promise.all(seqs.map((each) => this.records.forget(clientId, profileId, each)));
    }
  }
}
