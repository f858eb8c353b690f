import { Injectable } from '@nestjs/common';
import type { ProfileEvent } from '../../domain/profile-events';
import { ProfileRules } from '../../domain/profile-rules';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import type { CallerScope } from '../../domain/profile-view';
import type { Profile } from '../../domain/profile.schema';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';
import { ProfileExtensions } from '../profile-extensions.service';
import { RecordStage } from '../apply-profile-writes/pipeline/record.stage';
import { SaveStage } from '../apply-profile-writes/pipeline/save.stage';
import { AfterApplyStage } from '../apply-profile-writes/pipeline/after-apply.stage';
import type { ImportedProfile, ImportedProfileOutcome } from './create-imported-profiles.command';
import { type BuiltProfile, buildImportedProfile } from './imported-profile';

/**
 * Slices of a batch created concurrently: each one's engine commands overlap the next
 * one's checks and transitions in this process (measured: docs/bulk.md, "Figures").
 */
const CONCURRENT_SLICES = 2;

/** One command's records and what its slices share. */
export interface CreationBatch {
  clientId: string;
  userId: string;
  scope: CallerScope | undefined;
  profiles: ImportedProfile[];
  vocabulary: ProfileVocabulary;
  now: Date;
  /** Per record, in the command's order. */
  outcomes: ImportedProfileOutcome[];
  tagsSeen: Set<string>;
  created: Profile[];
  /** The events of each created profile, by profile id (the extensions' afterSave at the end). */
  events: Map<number, ProfileEvent[]>;
}

/**
 * Steps 1-4 of the import's new profiles (CreateImportedProfilesHandler's class comment)
 * for records of a batch, slice by slice, through the apply pipeline's stages in their
 * batch-shaped insert mode: the history pages and events (RecordStage), the profile
 * documents and the claims of the match pairs, with the undo of those held (SaveStage),
 * then step 4 (`finish`).
 */
@Injectable()
export class ImportedProfileSlices {
  constructor(
    private readonly rules: ProfileRules,
    private readonly extensions: ProfileExtensions,
    private readonly record: RecordStage,
    private readonly save: SaveStage,
    private readonly after: AfterApplyStage,
  ) {}

  /**
   * Steps 1-4 for the batch's records `indexes` (`built`: the batch built ahead, by record).
   * The records name no alternate id in common (the importer's groups), so slices of them
   * are independent: while the engine saves one slice, this process builds the next.
   */
  async createEach(
    batch: CreationBatch,
    indexes: number[],
    built?: (BuiltProfile | null)[],
  ): Promise<void> {
    if (!indexes.length) return;
    const size = Math.ceil(indexes.length / CONCURRENT_SLICES);
    await Promise.all(
      Array.from({ length: Math.ceil(indexes.length / size) }, (_, k) =>
        this.createSlice(batch, indexes.slice(k * size, (k + 1) * size), built),
      ),
    );
  }

  /**
   * Steps 1-4 (see CreateImportedProfilesHandler's class comment) for the batch's records
   * `indexes`.
   */
  private async createSlice(
    batch: CreationBatch,
    indexes: number[],
    prebuilt?: (BuiltProfile | null)[],
  ): Promise<void> {
    const { clientId, profiles, outcomes } = batch;
    const built: BuiltProfile[] = [];
    for (const index of indexes) {
      const profile = prebuilt
        ? prebuilt[index]
        : buildImportedProfile(batch, profiles[index], index, this.rules);
      // What rides on it for the extensions (the counts' change), as on a pass's save.
      if (profile) built.push({ ...profile, profile: this.countedNew(profile) });
    }
    await this.record.recordCreates(clientId, built);
    const saves = await this.save.insertCreates(
      built.map(({ profile, index }) => ({ profile, pair: profiles[index].pair })),
    );
    const held = built.filter((_, k) => saves[k] === 'held');
    for (const { index } of held) outcomes[index] = 'held';
    await this.removeUnclaimed(held);
    const finishing = built.filter((_, k) => saves[k] === 'saved');
    await this.save.indexCreates(finishing.map(({ profile }) => profile));
    const finished = await this.finish(
      finishing.map(({ profile, index }) => ({ profile, claimedPair: profiles[index].pair })),
      batch.tagsSeen,
    );
    finishing.forEach((profile, k) => {
      outcomes[profile.index] = finished[k];
      if (finished[k] === 'created') {
        batch.created.push(profile.profile);
        batch.events.set(profile.profile.profileId, profile.events);
      }
    });
  }

  /**
   * A built profile carrying what rides on it for the extensions (the counts' change): its
   * create write on an empty shell.
   */
  private countedNew({ shell, profile, write }: BuiltProfile): Profile {
    return this.extensions.prepare(shell, profile, [{ write, before: shell, after: profile }]);
  }

  /**
   * Step 4 for saved profiles (whether saved just now or by an attempt a crash cut short),
   * per profile 'created', or 'ordinary' when a pair turned out to be someone else's.
   * `claimedPair`: the match pair step 3 claimed for it (absent on a resumed batch). The
   * other claims per profile, then the read model of those that keep their pairs in one
   * publication (SaveStage), then their writes counted and new tags (AfterApplyStage).
   */
  async finish(
    items: { profile: Profile; claimedPair?: AlternateIdPair }[],
    tagsSeen: Set<string>,
  ): Promise<ImportedProfileOutcome[]> {
    const kept = await this.save.claimCreates(items);
    const created = items.filter((_, k) => kept[k]).map(({ profile }) => profile);
    await this.save.publishCreates(created);
    await this.after.afterCreates(created, tagsSeen);
    return kept.map((keeps) => (keeps ? 'created' : 'ordinary'));
  }

  /**
   * Step 3's undo for the profiles whose match pair turned out held: their documents and
   * history pages go (by `_id`), before anyone learnt their ids. A crash before this leaves
   * them for the resumed batch, whose step 4 finds the pair held and deletes them the
   * ordinary way.
   */
  private async removeUnclaimed(profiles: BuiltProfile[]): Promise<void> {
    await Promise.all(
      profiles.map(async ({ profile }) => {
        await this.save.removeCreate(profile);
        await this.record.eraseCreate(profile);
      }),
    );
  }
}
