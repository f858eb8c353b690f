import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../dto/profile.dto';
import type { ProfileView } from '../../domain/profile-view';
import type { SearchCriteria } from './profile-search.criteria';

export class SearchProfilesQuery extends Query<ProfileDto[]> {
  constructor(
    readonly clientId: string,
    readonly criteria: SearchCriteria,
    /** The caller's view: what may match and what the answer shows. */
    readonly view: ProfileView,
  ) {
    super();
  }
}
