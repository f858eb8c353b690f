import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../../wire/profile.dto';
import type { ProfileView } from '../../../domain/profile-view';
import type { AlternateIdPair } from '../../../persistence/alternate-id-claims.service';
import type { SearchCriteria } from '../search-profiles/profile-search.criteria';

/** How the primary profile(s) are found: by id, by alternate id, or by phone or email. */
export type PrimaryProfile =
  | { profileId: number }
  | { pair: AlternateIdPair }
  | { contact: Extract<SearchCriteria, { kind: 'phone' | 'email' }> };

/**
 * The groups asked for: those of `groupType` in which the primary profile is an active
 * primary member (optionally only `groupName`), or one group named outright.
 */
export type GroupProfilesCriteria =
  | { by: 'primary'; primary: PrimaryProfile; groupType: string; groupName?: string }
  | { by: 'group'; groupType: string; groupName: string };

export class SearchGroupProfilesQuery extends Query<ProfileDto[]> {
  constructor(
    readonly clientId: string,
    readonly criteria: GroupProfilesCriteria,
    readonly view: ProfileView,
  ) {
    super();
  }
}
