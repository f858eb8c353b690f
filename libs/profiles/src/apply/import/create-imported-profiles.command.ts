import { Command } from '@nestjs/cqrs';
import type { CallerScope } from '../../domain/profile-view';
import type { ProfileDto } from '../../wire/profile.dto';
import type { ImportRecordRef } from '../../domain/import-marks';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';

/** One record of a bulk import that creates a new profile under an id reserved for it. */
export interface ImportedProfile {
  /** The id reserved for it (ProfileImportWrites.reserveNewProfileIds). */
  profileId: number;
  pair: AlternateIdPair;
  body: ProfileDto;
  record: ImportRecordRef;
}

/**
 * What became of each record: created under its id; `held`: its match pair has a holder
 * (the claim taken first found it taken), so the record is a write into that profile, the
 * ordinary way; `ordinary`: to be written the ordinary way for another reason (a check
 * refused it, its id or another of its alternate ids was taken meanwhile, or, on a resumed
 * batch, its profile was never saved).
 */
export type ImportedProfileOutcome = 'created' | 'held' | 'ordinary';

/**
 * A batch's new profiles built ahead of their creation (PrepareImportedProfilesCommand):
 * opaque to the importer, which hands it back to CreateImportedProfilesCommand for the same
 * records, in the same order, under the same ids.
 */
export interface PreparedImportedProfiles {
  readonly now: Date;
  /** Per record, in the command's order: its profile id and what was built (null: refused). */
  readonly built: ReadonlyArray<{ profileId: number; profile: unknown }>;
  readonly vocabulary: unknown;
}

/** How CreateImportedProfilesCommand creates its batch. */
export interface ImportedProfilesCreation {
  /**
   * The batch was cut short by a crash (its ids were saved): the profiles it saved are
   * finished; those it never saved are created now, if `now` is the instant the batch was
   * built at (else they go the ordinary way).
   */
  resumed?: boolean;
  /**
   * The instant the batch's profiles are built at (their stamps, history and events): the
   * importer saves it with the ids, so a resumed batch builds exactly the same documents.
   */
  now?: Date;
  /** The batch built ahead (PrepareImportedProfilesCommand), for the same records and ids. */
  prepared?: PreparedImportedProfiles;
}

/**
 * Create the new profiles of a bulk import's batch at once, already applied (see
 * CreateImportedProfilesHandler).
 */
export class CreateImportedProfilesCommand extends Command<ImportedProfileOutcome[]> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly scope: CallerScope | undefined,
    readonly profiles: ImportedProfile[],
    readonly creation: ImportedProfilesCreation = {},
  ) {
    super();
  }
}

/**
 * Build a batch's new profiles (the checks and the fold, no I/O but the client's
 * configuration) ahead of CreateImportedProfilesCommand, e.g. while the batch before is
 * being saved: pure work, nothing is stored.
 */
export class PrepareImportedProfilesCommand extends Command<PreparedImportedProfiles> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly scope: CallerScope | undefined,
    readonly profiles: ImportedProfile[],
    readonly now: Date,
  ) {
    super();
  }
}
