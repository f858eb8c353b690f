import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../wire/profile.dto';
import { FULL_VIEW, type ProfileView } from '../../domain/profile-view';

export class GetProfileQuery extends Query<ProfileDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    /** What the caller may see (viewOf); FULL_VIEW for internal reads. */
    readonly view: ProfileView = FULL_VIEW,
  ) {
    super();
  }
}
