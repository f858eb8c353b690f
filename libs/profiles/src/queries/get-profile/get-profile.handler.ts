import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ProfileDto } from '../../dto/profile.dto';
import { toPendingProfileDto, toProfileDto } from '../../mapping/profile.mapper';
import { ExistingProfiles } from '../../services/existing-profiles.service';
import { GetProfileQuery } from './get-profile.query';

@QueryHandler(GetProfileQuery)
export class GetProfileHandler implements IQueryHandler<GetProfileQuery> {
  constructor(private readonly existing: ExistingProfiles) {}

  async execute({ clientId, profileId, view }: GetProfileQuery): Promise<ProfileDto> {
    // From the read model: no database command unless the entry must be rebuilt.
    const profile = await this.existing.get(clientId, profileId);
    if (!profile.data) return toPendingProfileDto(profileId);
    // UpdateStatus: Pending Update while any accepted write is not yet applied.
    const pending = profile.acceptedSeq > profile.appliedSeq;
    return toProfileDto(profileId, profile.data, pending, view);
  }
}
