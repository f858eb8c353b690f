import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ConflictError, CRASH_POINTS, CrashPoints, Metrics } from '@app/shared';
import { importRecordApplied } from '../../domain/import-marks';
import type { ProfileEvent } from '../../domain/profile-events';
import { ProfileRules } from '../../domain/profile-rules';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import type { CallerScope } from '../../domain/profile-view';
import type { Profile } from '../../domain/profile.schema';
import { ExpiryIndex } from '../../read-model/expiry-index.service';
import { ProfileReadModel } from '../../read-model/profile-read-model.service';
import { ProfileHistoryRepository } from '../../repositories/profile-history.repository';
import { ProfileRepository } from '../../repositories/profile.repository';
import { TagRepository } from '../../repositories/tag.repository';
import { ProfileKeyIndex } from '../../search-index/profile-key-index.service';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { PROFILE_APPLY_HOOKS, type ProfileApplyHook } from '../../services/profile-apply-hook';
import type { AlternateIdPair } from '../../services/alternate-id-claims.service';
import { alternateIdKey } from '../../domain/element-rules';
import { ProfileWriteIntake } from '../../services/profile-write-intake.service';
import { ProfileEventRepository } from '../../repositories/profile-event.repository';
import { ProfileEventNotifier } from '../../services/profile-event-notifier.service';
import { PROFILE_COUNTS, type ProfileCounts } from '../../services/profile-counts.port';
import { type BuiltProfile, buildImportedProfile, preparedFor } from './imported-profile';
import {
  CreateImportedProfilesCommand,
  type ImportedProfile,
  type ImportedProfileOutcome,
} from './create-imported-profiles.command';

/**
 * Slices of a batch created concurrently: each one's engine commands overlap the next
 * one's checks and transitions in this process (measured: docs/bulk.md, "Figures").
 */
const CONCURRENT_SLICES = 2;

/** One command's records and what its slices share. */
interface CreationBatch {
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
  /** The events of each created profile, by profile id (told to the listeners at the end). */
  events: Map<number, ProfileEvent[]>;
}

/**
 * The worker's fast path for a bulk import's new profiles (docs/bulk.md, "Execute"): the
 * records of a batch whose match pair nobody holds become profiles already applied, in a
 * few engine commands for the whole batch instead of some fifteen per record. Each profile
 * is exactly what the ordinary path makes of the record (the same checks, the same
 * transition of an empty shell by its create write, seq 1, with its import mark), saved in
 * this order, each step one unordered insert for the batch:
 *
 * 1. its history pages and its events (unread until a profile counts them: a page of an id
 *    that ends up someone else's is never read, and its owner's first write replaces it);
 * 2. the profile document, under the id reserved for the record (the hint was raised over
 *    it; an id another writer took meanwhile sends the record the ordinary way);
 * 3. the claim of its match pair, only if nobody holds the pair (no claim is read). A pair
 *    already claimed makes the record `held`, a write into the holder the ordinary way,
 *    and its profile and pages of steps 1-2 are removed (nobody knew its id yet). This is
 *    how the batch learns which pairs are new without reading one claim per record (the
 *    importer need not look holders up first);
 * 4. then, per profile: its other alternate id claims (a pair someone claimed meanwhile:
 *    the profile's other claims are released, the profile is queued for deletion and the
 *    record goes the ordinary way, into the holder), search keys, due expiry, read model
 *    and new tags; then the apply hooks for the batch's profiles at once (do-not-contact
 *    marks, queued behind seq 1: the account's lists read once).
 *
 * No write record is stored (the history entries name seq 1 and the import's user). A
 * crash after step 2 leaves saved profiles whose steps 3-4 did not run: the import resumes
 * the batch with `resumed` (it saved the reserved ids before step 1), which reads each
 * reserved id by `_id` and runs step 4 again, with every pair claimed, for the profiles
 * holding the record's import mark (every part of it is idempotent); the others go the
 * ordinary way.
 */
@CommandHandler(CreateImportedProfilesCommand)
export class CreateImportedProfilesHandler implements ICommandHandler<CreateImportedProfilesCommand> {
  private readonly logger = new Logger('CreateImportedProfiles');

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly tags: TagRepository,
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
    private readonly readModel: ProfileReadModel,
    private readonly expiryIndex: ExpiryIndex,
    private readonly keyIndex: ProfileKeyIndex,
    private readonly intake: ProfileWriteIntake,
    @Inject(PROFILE_APPLY_HOOKS) private readonly applyHooks: ProfileApplyHook[],
    private readonly crashPoints: CrashPoints,
    private readonly metrics: Metrics,
    private readonly events: ProfileEventRepository,
    private readonly eventNotifier: ProfileEventNotifier,
    @Inject(PROFILE_COUNTS) private readonly counts: ProfileCounts,
  ) {}

  execute(command: CreateImportedProfilesCommand): Promise<ImportedProfileOutcome[]> {
    return command.creation.resumed ? this.finishSaved(command) : this.createAll(command);
  }

  private async createAll(
    command: CreateImportedProfilesCommand,
  ): Promise<ImportedProfileOutcome[]> {
    const prepared = preparedFor(command.creation.prepared, command.profiles);
    const batch = await this.batchOf(command, prepared);
    await this.createEach(
      batch,
      command.profiles.map((_, index) => index),
      prepared?.built,
    );
    await this.afterCreation(batch);
    return batch.outcomes;
  }

  /** What the slices of the command's batch share (built ahead: as it was built). */
  private async batchOf(
    { clientId, userId, scope, profiles, creation }: CreateImportedProfilesCommand,
    prepared?: { now: Date; vocabulary: ProfileVocabulary },
    tagsSeen = new Set<string>(),
  ): Promise<CreationBatch> {
    return {
      clientId,
      userId,
      scope,
      profiles,
      vocabulary: prepared?.vocabulary ?? (await this.configuration.vocabulary(clientId)),
      now: prepared?.now ?? creation.now ?? new Date(),
      outcomes: profiles.map(() => 'ordinary'),
      tagsSeen,
      created: [],
      events: new Map(),
    };
  }

  /**
   * Steps 1-4 for the batch's records `indexes` (`built`: the batch built ahead, by record).
   * The records name no alternate id in common (the importer's groups), so slices of them
   * are independent: while the engine saves one slice, this process builds the next.
   */
  private async createEach(
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

  /** After the batch's profiles are created: the apply hooks, then the event listeners. */
  private async afterCreation(batch: CreationBatch): Promise<void> {
    await this.runApplyHooks(batch.clientId, batch.created);
    // At once: the listeners ask which subscriptions receive now once for the batch.
    await this.eventNotifier.savedMany(
      batch.clientId,
      batch.created.map((profile) => ({
        profileId: profile.profileId,
        events: batch.events.get(profile.profileId) ?? [],
      })),
    );
  }

  /** Steps 1-4 (see the class comment) for the batch's records `indexes`. */
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
      // Reports: its counts ride on it, as on a pass's save.
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
    await this.indexAll(finishing.map(({ profile }) => profile));
    // Reports: the slice's kept profiles counted at once (one that goes on is deleted later,
    // which counts it out again).
    await this.counts.afterSaveMany(
      clientId,
      finishing.map(({ profile }) => profile),
    );
    const finished = await this.finishAll(
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
   * After a crash: steps 3-4 for the profiles step 2 saved (see the class comment), and
   * steps 1-4 for those it never saved (no profile under the id), built at the batch's
   * `now`, so exactly as the first attempt built them (what it stored of them is kept);
   * without `now`, these go the ordinary way.
   */
  private async finishSaved(
    command: CreateImportedProfilesCommand,
  ): Promise<ImportedProfileOutcome[]> {
    const { clientId, profiles, creation } = command;
    const tagsSeen = new Set<string>();
    const stored = await Promise.all(
      profiles.map((imported) => this.profiles.findOne(clientId, imported.profileId)),
    );
    const saved = stored.map((profile, k) =>
      profile?.state === 'active' && importRecordApplied(profile, profiles[k].record)
        ? profile
        : null,
    );
    const found = saved.filter((profile): profile is Profile => profile !== null);
    await this.indexAll(found);
    await this.counts.afterSaveMany(clientId, found); // reports: once, whatever ran before
    const finished = await this.finishAll(
      found.map((profile) => ({ profile })),
      tagsSeen,
    );
    const created = found.filter((_, k) => finished[k] === 'created');
    const outcomes = saved.map((profile): ImportedProfileOutcome =>
      profile ? finished[found.indexOf(profile)] : 'ordinary',
    );
    const missing = stored.flatMap((profile, index) => (profile === null ? [index] : []));
    const batch =
      creation.now && missing.length ? await this.batchOf(command, undefined, tagsSeen) : undefined;
    if (batch) {
      await this.createEach(batch, missing);
      for (const index of missing) outcomes[index] = batch.outcomes[index];
    }
    await this.runApplyHooks(clientId, created);
    await Promise.all(created.map((profile) => this.eventNotifier.savedAgain(profile)));
    if (batch) await this.afterCreation(batch);
    return outcomes;
  }

  /** A built profile carrying its counts (reports): its create write on an empty shell. */
  private countedNew({ shell, profile, write }: BuiltProfile): Profile {
    return this.counts.prepare(shell, profile, [{ write, before: shell, after: profile }]);
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

  /**
   * Step 4's search keys and due expiries of the saved profiles whose match pair is theirs,
   * for all of them at once (one pipeline each). A profile that `finish` then sends the
   * ordinary way leaves stale keys (its delete removes them; a search checks every
   * candidate anyway).
   */
  private async indexAll(profiles: Profile[]): Promise<void> {
    await this.keyIndex.beforeCreateMany(profiles);
    await this.expiryIndex.add(profiles.filter((profile) => profile.state === 'active'));
  }

  /**
   * The rule modules' apply hooks for the created profiles (a do-not-contact mark queued
   * behind seq 1), at once where a hook takes many writes. Each is idempotent: a resumed
   * batch runs them again.
   */
  private async runApplyHooks(clientId: string, created: Profile[]): Promise<void> {
    const items = created.map((profile) => ({
      write: { clientId, profileId: profile.profileId, seq: profile.appliedSeq },
      after: profile.data,
    }));
    for (const hook of this.applyHooks) {
      if (hook.beforeSaveMany) await hook.beforeSaveMany(clientId, items);
      else for (const item of items) await hook.beforeSave(item.write, undefined, item.after);
    }
  }

  /**
   * Step 4 for saved profiles, per profile 'created', or 'ordinary' when a pair turned out
   * to be someone else's. `claimedPair`: the match pair step 3 claimed for it (absent on a
   * resumed batch). The other claims per profile (concurrently), then the read model of
   * those that keep their pairs in one publication (a script call, not a command each),
   * then new tags.
   */
  private async finishAll(
    items: { profile: Profile; claimedPair?: AlternateIdPair }[],
    tagsSeen: Set<string>,
  ): Promise<ImportedProfileOutcome[]> {
    const outcomes = await Promise.all(
      items.map(({ profile, claimedPair }) => this.claimOthers(profile, claimedPair)),
    );
    const created = items.filter((_, k) => outcomes[k] === 'created').map(({ profile }) => profile);
    try {
      await this.readModel.publishMany(created);
    } catch (error) {
      // Readers read the database meanwhile (nothing was published for a new profile).
      this.logger.warn(`read model of ${created.length} profiles not published: ${String(error)}`);
    }
    await Promise.all(
      created.map(async (profile) => {
        for (const tag of profile.data?.ProfileTags ?? []) {
          if (tag.IsActive === false || tagsSeen.has(tag.Key)) continue;
          tagsSeen.add(tag.Key);
          await this.tags.ensure(profile.clientId, tag.Name, tag.Key);
        }
        this.metrics.writeApplied('create');
      }),
    );
    return outcomes;
  }

  /**
   * Step 4's claims for one saved profile: its alternate ids other than the match pair step
   * 3 claimed (`claimedPair`); 'ordinary' when one is someone else's (the profile then goes
   * as a delete would take it).
   */
  private async claimOthers(
    profile: Profile,
    claimedPair?: AlternateIdPair,
  ): Promise<ImportedProfileOutcome> {
    const { clientId, profileId } = profile;
    // The match pair step 3 claimed is not claimed again (a second insert, then a read).
    const claimed =
      claimedPair && alternateIdKey(claimedPair.AlternateIdType, claimedPair.AlternateId);
    const others = (profile.data?.AlternateIds ?? []).filter(
      (pair) => alternateIdKey(pair.AlternateIdType, pair.AlternateId) !== claimed,
    );
    try {
      await this.alternateIds.claimAll(clientId, profileId, others);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      // claimAll released the pairs it took, and the match pair goes too (the record is now
      // a write by that pair, which must not find this profile holding it); the profile
      // goes as a delete would take it.
      if (claimedPair) await this.alternateIds.releasePairs(clientId, profileId, [claimedPair]);
      await this.intake.accept({
        clientId,
        profileId,
        kind: 'delete',
        userId: 'system:bulk-import',
        known: { appliedSeq: profile.appliedSeq, acceptedSeq: profile.appliedSeq },
        background: true,
      });
      return 'ordinary';
    }
    return 'created';
  }
}
