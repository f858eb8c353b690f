import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import type { ProfileDto } from '../../dto/profile.dto';
import { ProfileRepository } from '../../repositories/profile.repository';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { GetProfileQuery } from '../get-profile/get-profile.query';
import { GetProfileByAlternateIdQuery } from './get-profile-by-alternate-id.query';

/**
 * An active pair is found through its claim (unique per type across the client's
 * profiles). With matchInactive, a pair stored inactive is searched in the profiles;
 * inactive pairs are not unique, so the profile with the highest id among them answers.
 */
@QueryHandler(GetProfileByAlternateIdQuery)
export class GetProfileByAlternateIdHandler implements IQueryHandler<GetProfileByAlternateIdQuery> {
  constructor(
    private readonly alternateIds: AlternateIdClaims,
    private readonly profiles: ProfileRepository,
    private readonly queries: QueryBus,
  ) {}

  async execute({
    clientId,
    pair,
    matchInactive,
    view,
  }: GetProfileByAlternateIdQuery): Promise<ProfileDto> {
    let profileId = await this.alternateIds.currentHolder(clientId, pair, 0).catch(() => null);
    if (profileId === null && matchInactive) {
      const key = alternateIdKey(pair.AlternateIdType, pair.AlternateId);
      const [found] = await this.profiles.findWithAlternateIdKey(clientId, key);
      profileId = found?.profileId ?? null;
    }
    if (profileId === null) {
      throw ApiError.notFound(
        `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
      );
    }
    return this.queries.execute(new GetProfileQuery(clientId, profileId, view));
  }
}
