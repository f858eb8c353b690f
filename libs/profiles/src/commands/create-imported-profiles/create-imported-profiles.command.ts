import { Command } from '@nestjs/cqrs';
import type { CallerScope } from '../../domain/profile-view';
import type { ImportRecordRef } from '../../domain/import-marks';
import type { AlternateIdPair } from '../../services/alternate-id-claims.service';

/** One record of a bulk import that creates a new profile under an id reserved for it. */
export interface ImportedProfile {
  /** The id reserved for it (ProfileImportWrites.reserveNewProfileIds). */
  profileId: number;
  pair: AlternateIdPair;
  body: Record<string, unknown>;
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
 * Create the new profiles of a bulk import's batch at once, already applied (see
 * CreateImportedProfilesHandler). `resumed`: the batch was cut short by a crash; only
 * finish the profiles it saved.
 */
export class CreateImportedProfilesCommand extends Command<ImportedProfileOutcome[]> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly scope: CallerScope | undefined,
    readonly profiles: ImportedProfile[],
    readonly resumed = false,
  ) {
    super();
  }
}
