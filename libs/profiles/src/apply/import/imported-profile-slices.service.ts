import { Injectable } from '@nestjs/common';
import { CRASH_POINTS, CrashPoints } from '@app/shared';
import type { ProfileEvent } from '../../domain/profile-events';
import { ProfileRules } from '../../domain/profile-rules';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import type { CallerScope } from '../../domain/profile-view';
import type { Profile } from '../../domain/profile.schema';
import { ProfileEventRepository } from '../../persistence/profile-event.repository';
import { ProfileHistoryRepository } from '../../persistence/profile-history.repository';
import { ProfileRepository } from '../../persistence/profile.repository';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import { ProfileExtensions } from '../profile-extensions.service';
import type { ImportedProfile, ImportedProfileOutcome } from './create-imported-profiles.command';
import { type BuiltProfile, buildImportedProfile } from './imported-profile';
import { ImportedProfileFinisher } from './imported-profile-finisher.service';

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
 * for records of a batch, slice by slice: the history pages and events, the profile
 * documents, the claims of the match pairs (and the undo of those held), then step 4
 * (ImportedProfileFinisher).
 */
@Injectable()
export class ImportedProfileSlices {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly rules: ProfileRules,
    private readonly crashPoints: CrashPoints,
    private readonly events: ProfileEventRepository,
    private readonly extensions: ProfileExtensions,
    private readonly finisher: ImportedProfileFinisher,
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
    await this.history.insertPages(built.flatMap((profile) => profile.pages));
    await this.events.insertMany(
      built
        .filter(({ events }) => events.length)
        .map(({ profile, events }) => ({
          clientId,
          profileId: profile.profileId,
          seq: 1,
          events,
        })),
    );
    const inserted = await this.profiles.insertNew(built.map((profile) => profile.profile));
    await this.crashPoints.at(CRASH_POINTS.importCreateAfterSave);
    const saved = built.filter((_, k) => inserted[k] === 'inserted');
    const claimed = await Promise.all(
      saved.map(({ index }) =>
        this.alternateIds.claimIfFree(clientId, profiles[index].profileId, profiles[index].pair),
      ),
    );
    const held = saved.filter((_, k) => !claimed[k]);
    for (const { index } of held) outcomes[index] = 'held';
    await this.removeUnclaimed(held);
    const finishing = saved.filter((_, k) => claimed[k]);
    await this.finisher.indexAll(finishing.map(({ profile }) => profile));
    const finished = await this.finisher.finishAll(
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
   * Step 3's undo for the profiles whose match pair turned out held: their documents and
   * history pages go (by `_id`), before anyone learnt their ids. A crash before this leaves
   * them for the resumed batch, whose step 4 finds the pair held and deletes them the
   * ordinary way.
   */
  private async removeUnclaimed(profiles: BuiltProfile[]): Promise<void> {
    await Promise.all(
      profiles.map(async ({ profile }) => {
        await this.profiles.removeUnclaimed(profile._id);
        await this.history.eraseProfile(
          profile.clientId,
          profile.profileId,
          profile.historyPages ?? 0,
        );
        await this.events.erase(profile.clientId, profile.profileId, [1]);
      }),
    );
  }
}
