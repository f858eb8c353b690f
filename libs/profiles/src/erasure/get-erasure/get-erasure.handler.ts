import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { ErasureTombstoneDto } from '../data-subject.dto';
import { ProfileErasureRepository } from '../../persistence/profile-erasure.repository';
import { ProfileRepository } from '../../persistence/profile.repository';
import { GetErasureQuery } from './get-erasure.query';

/**
 * The tombstone by `_id`, shown once the erasure is saved (the profile's appliedSeq holds
 * it): a tombstone written by an attempt that has not reached its save yet is not shown.
 */
@QueryHandler(GetErasureQuery)
export class GetErasureHandler implements IQueryHandler<GetErasureQuery> {
  constructor(
    private readonly erasures: ProfileErasureRepository,
    private readonly profiles: ProfileRepository,
  ) {}

  async execute({ clientId, profileId }: GetErasureQuery): Promise<ErasureTombstoneDto> {
    const [tombstone, profile] = await Promise.all([
      this.erasures.tombstone(clientId, profileId),
      this.profiles.findOne(clientId, profileId),
    ]);
    if (
      !tombstone ||
      tombstone.clientId !== clientId ||
      !profile ||
      profile.appliedSeq < tombstone.seq
    )
      throw new NotFoundError(`Profile ${profileId} has no erasure`);
    return {
      ProfileId: profileId,
      RequestedBy: tombstone.requestedBy,
      RequestedUtcTime: new Date(tombstone.requestedAt).toISOString(),
      ErasedUtcTime: new Date(tombstone.erasedAt).toISOString(),
      ReasonCode: tombstone.reasonCode,
      ...(tombstone.note ? { Note: tombstone.note } : {}),
      IdentifiersHashed: tombstone.identifiers.length,
    };
  }
}
