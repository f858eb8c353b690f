import { Query } from '@nestjs/cqrs';
import type { HistoryCategory } from '../../../domain/profile-history.schema';
import type { HistoryEntryDto } from '../history-entry.dto';
import type { ProfileView } from '../../../domain/profile-view';
import type { AlternateIdPair } from '../../../persistence/alternate-id-claims.service';

/** A profile named by its id, or by an alternate id pair it holds (case-insensitive). */
export type HistoryTarget = { profileId: number } | { pair: AlternateIdPair };

/**
 * The full history of one category of a profile (standard fields, custom fields, contact
 * elements, preferences optionally of one filter, consents), as Profile-shaped entries.
 */
export class GetProfileHistoryQuery extends Query<HistoryEntryDto[]> {
  constructor(
    readonly clientId: string,
    readonly target: HistoryTarget,
    readonly category: HistoryCategory,
    readonly view: ProfileView,
    /** Preferences only: entries of this FilterId (compared trimmed, case-insensitively). */
    readonly filterId?: string,
  ) {
    super();
  }
}
