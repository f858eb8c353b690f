import { IQueryHandler, QueryBus, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import type { ProfileDto } from '../../wire/profile.dto';
import { toProfileDto } from '../../wire/profile.mapper';
import { SearchCandidates } from '../search/search-candidates.service';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { GetProfileQuery } from '../get-profile/get-profile.query';
import { GetProfileAsOfQuery } from '../get-profile-as-of/get-profile-as-of.query';
import { GetProfileByAlternateIdQuery } from './get-profile-by-alternate-id.query';

/**
 * An active pair is found through its claim (unique per type across the client's
 * profiles): one `_id` read, then the holder from the read model, which answers at once
 * when it shows the pair (the common case); otherwise the claim is checked for staleness
 * as a write would. With matchInactive, a pair stored inactive is searched in the profiles;
 * inactive pairs are not unique, so the profile with the highest id among them answers.
 */
@QueryHandler(GetProfileByAlternateIdQuery)
export class GetProfileByAlternateIdHandler implements IQueryHandler<GetProfileByAlternateIdQuery> {
  constructor(
    private readonly alternateIds: AlternateIdClaims,
    private readonly existing: ExistingProfiles,
    private readonly candidates: SearchCandidates,
    private readonly queries: QueryBus,
  ) {}

  async execute({
    clientId,
    pair,
    matchInactive,
    view,
    asOf,
  }: GetProfileByAlternateIdQuery): Promise<ProfileDto> {
    const holder = await this.existing.findClaimHolder(clientId, pair);
    if (holder?.data && asOf) {
      return this.queries.execute(new GetProfileAsOfQuery(clientId, holder.profileId, asOf, view));
    }
    if (holder?.data) {
      const pending = holder.acceptedSeq > holder.appliedSeq;
      return toProfileDto(holder.profileId, holder.data, pending, view);
    }
    let profileId = await this.alternateIds.currentHolder(clientId, pair, 0).catch(() => null);
    if (profileId === null && matchInactive) {
      // Inactive pairs are not unique: the highest profile id holding the pair answers.
      const key = alternateIdKey(pair.AlternateIdType, pair.AlternateId);
      const holders = await this.candidates.all(
        clientId,
        [[`altid:${key}`]],
        [{ 'data.AlternateIds.Key': key }],
      );
      const found = holders
        .filter((profile) => profile.data?.AlternateIds?.some((stored) => stored.Key === key))
        .pop();
      profileId = found?.profileId ?? null;
    }
    if (profileId === null) {
      throw new NotFoundError(
        `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
      );
    }
    return this.queries.execute(
      asOf
        ? new GetProfileAsOfQuery(clientId, profileId, asOf, view)
        : new GetProfileQuery(clientId, profileId, view),
    );
  }
}
