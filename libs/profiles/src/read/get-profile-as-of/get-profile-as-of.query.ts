import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../wire/profile.dto';
import { FULL_VIEW, type ProfileView } from '../../domain/profile-view';

/**
 * A profile as it stood at an instant, rebuilt from its history (domain/profile-as-of.ts)
 * and shown as GET shows a profile, through the caller's view.
 */
export class GetProfileAsOfQuery extends Query<ProfileDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    /** Writes accepted at or before it are replayed (intake/as-of.params.ts parses it). */
    readonly asOf: Date,
    readonly view: ProfileView = FULL_VIEW,
  ) {
    super();
  }
}
