import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ProfileDto } from '../../dto/profile.dto';
import { toPendingProfileDto, toProfileDto } from '../../mapping/profile.mapper';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { ExistingProfiles } from '../../services/existing-profiles.service';
import { GetProfileQuery } from './get-profile.query';

@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly writes: ProfileWriteRepository,
  ) {}

  async execute({ clientId, profileId, view }: GetProfileQuery): Promise<ProfileDto> {
    const profile = await this.existing.get(clientId, profileId);
    if (!profile.data) return toPendingProfileDto(profileId);
    // UpdateStatus is exact: Pending Update while any accepted write is not yet applied.
    const pending = await this.writes.hasPending(clientId, profileId);
    return toProfileDto(profileId, profile.data, pending, view);
  }
}
