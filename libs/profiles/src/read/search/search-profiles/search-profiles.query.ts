import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../../wire/profile.dto';
import type { ProfileView } from '../../../domain/profile-view';
import type { SearchCriteriaOf } from '../../../domain/profile-rules.port';
import type { SearchCriteria } from './profile-search.criteria';

/**
 * A profile search: one of the profile's own (SearchCriteria) or of a rule module (its
 * kind names a ProfileSearchRule the module registered).
 */
export class SearchProfilesQuery extends Query<ProfileDto[]> {
  constructor(
    readonly clientId: string,
    readonly criteria: SearchCriteria | SearchCriteriaOf,
    /** The caller's view: what may match and what the answer shows. */
    readonly view: ProfileView,
  ) {
    super();
  }
}
