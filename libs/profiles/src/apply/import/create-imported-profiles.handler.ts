import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { importRecordApplied } from '../../domain/import-marks';
import type { ProfileVocabulary } from '../../domain/profile-vocabulary';
import type { Profile } from '../../domain/profile.schema';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileExtensions } from '../profile-extensions.service';
import { preparedFor } from './imported-profile';
import { SaveStage } from '../apply-profile-writes/pipeline/save.stage';
import { type CreationBatch, ImportedProfileSlices } from './imported-profile-slices.service';
import {
  CreateImportedProfilesCommand,
  type ImportedProfileOutcome,
} from './create-imported-profiles.command';

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
 *    and new tags; then the extensions' beforeSave and afterSave for the batch's profiles
 *    at once (do-not-contact marks queued behind seq 1: the account's lists read once; the
 *    event trigger; the counts).
 *
 * No write record is stored (the history entries name seq 1 and the import's user). A
 * crash after step 2 leaves saved profiles whose steps 3-4 did not run: the import resumes
 * the batch with `resumed` (it saved the reserved ids before step 1), which reads each
 * reserved id by `_id` and runs step 4 again, with every pair claimed, for the profiles
 * holding the record's import mark (every part of it is idempotent); the others go the
 * ordinary way.
 *
 * The steps are the apply pipeline's stages in their batch-shaped insert mode (RecordStage,
 * SaveStage, AfterApplyStage), so nothing of the recording, the save, the publication or
 * the after-apply is the import's own: it keeps the reserved ids, the slices of a batch
 * (ImportedProfileSlices, which runs steps 1-4 through the stages) and the resume. This
 * handler holds the two paths (created, resumed) and what runs once per batch (the
 * extensions).
 */
@CommandHandler(CreateImportedProfilesCommand)
export class CreateImportedProfilesHandler implements ICommandHandler<CreateImportedProfilesCommand> {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly configuration: ConfigurationReader,
    private readonly extensions: ProfileExtensions,
    private readonly slices: ImportedProfileSlices,
    private readonly save: SaveStage,
  ) {}

  execute(command: CreateImportedProfilesCommand): Promise<ImportedProfileOutcome[]> {
    return command.creation.resumed ? this.finishSaved(command) : this.createAll(command);
  }

  private async createAll(
    command: CreateImportedProfilesCommand,
  ): Promise<ImportedProfileOutcome[]> {
    const prepared = preparedFor(command.creation.prepared, command.profiles);
    const batch = await this.batchOf(command, prepared);
    await this.slices.createEach(
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
   * After the batch's profiles are created: the extensions' beforeSave, then their
   * afterSave, each once for the batch (the event trigger reads the subscriptions once, the
   * counts count the batch in one script). A profile sent the ordinary way after its save
   * is not counted here: its delete's pass counts its create with it (the change rides on
   * the profile).
   */
  private async afterCreation(batch: CreationBatch): Promise<void> {
    await this.beforeSave(batch.clientId, batch.created);
    await this.extensions.afterSave(
      batch.clientId,
      batch.created.map((profile) => ({
        profile,
        events: batch.events.get(profile.profileId) ?? [],
      })),
    );
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
    await this.save.indexCreates(found);
    const finished = await this.slices.finish(
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
      await this.slices.createEach(batch, missing);
      for (const index of missing) outcomes[index] = batch.outcomes[index];
    }
    await this.beforeSave(clientId, created);
    // Their events read back; the counts count each once, whatever ran before.
    await this.extensions.afterSaveAgain(clientId, created);
    if (batch) await this.afterCreation(batch);
    return outcomes;
  }

  /**
   * The extensions' beforeSave for the created profiles' create writes (a do-not-contact
   * mark queued behind seq 1), the batch at once. Each is idempotent: a resumed batch runs
   * it again.
   */
  private async beforeSave(clientId: string, created: Profile[]): Promise<void> {
    await this.extensions.beforeSave(
      clientId,
      created.map((profile) => ({
        write: { clientId, profileId: profile.profileId, seq: profile.appliedSeq },
        after: profile.data,
      })),
    );
  }
}
