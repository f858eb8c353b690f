import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../dto/profile.dto';
import type { SearchCriteria } from './profile-search.criteria';

export class SearchProfilesQuery extends Query<ProfileDto[]> {
  constructor(
    readonly clientId: string,
    readonly criteria: SearchCriteria,
  ) {
    super();
  }
}
