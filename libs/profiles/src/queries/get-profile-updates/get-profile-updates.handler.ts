import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import type { ProfileUpdateListDto } from '../../dto/profile-update.dto';
import { toProfileUpdateDto } from '../../mapping/profile-update.mapper';
import { ProfileRepository } from '../../repositories/profile.repository';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { GetProfileUpdatesQuery } from './get-profile-updates.query';

/** The accepted writes of a profile with their outcome, failures included. */
@QueryHandler(GetProfileUpdatesQuery)
export class GetProfileUpdatesHandler implements IQueryHandler<GetProfileUpdatesQuery> {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
  ) {}

  async execute({ clientId, profileId }: GetProfileUpdatesQuery): Promise<ProfileUpdateListDto> {
    const profile = await this.profiles.findOne(clientId, profileId);
    // A refused create leaves a shell with a failed write: still shown, so the failure is visible.
    if (
      !profile ||
      profile.state === 'deleted' ||
      !(await this.writes.hasAny(clientId, profileId))
    ) {
      throw ApiError.notFound(`Profile ${profileId} was not found`);
    }
    const writes = await this.writes.listFor(clientId, profileId, 100);
    return { Updates: writes.map(toProfileUpdateDto) };
  }
}
