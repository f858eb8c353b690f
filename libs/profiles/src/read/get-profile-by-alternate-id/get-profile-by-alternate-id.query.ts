import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../wire/profile.dto';
import { FULL_VIEW, type ProfileView } from '../../domain/profile-view';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';

/** The profile holding an alternate id pair; with matchInactive also one storing it inactive. */
export class GetProfileByAlternateIdQuery extends Query<ProfileDto> {
  constructor(
    readonly clientId: string,
    readonly pair: AlternateIdPair,
    readonly matchInactive: boolean,
    readonly view: ProfileView = FULL_VIEW,
    /** The profile as it stood then (GetProfileAsOfQuery), found by the pair as it is now. */
    readonly asOf?: Date,
  ) {
    super();
  }
}
