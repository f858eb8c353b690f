import { Injectable } from '@nestjs/common';
import { ApiError } from '@app/shared';
import type { Profile } from '../domain/profile.schema';
import { ProfileRepository } from '../repositories/profile.repository';
import { ProfileWriteRepository } from '../repositories/profile-write.repository';

/**
 * Looks up a profile that a request names, answering 404 for one that does not exist:
 * never created, deleted, or a shell whose create was refused.
 */
@Injectable()
export class ExistingProfiles {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
  ) {}

  async get(clientId: string, profileId: number): Promise<Profile> {
    const profile = await this.find(clientId, profileId);
    if (!profile) throw ApiError.notFound(`Profile ${profileId} was not found`);
    return profile;
  }

  async find(clientId: string, profileId: number): Promise<Profile | null> {
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'deleted') return null;
    if (profile.state !== 'pending' || (await this.writes.hasPending(clientId, profileId))) {
      return profile;
    }
    // No pending write: the create was refused, or a worker applied it after our first
    // read (it saves the profile before it marks the write). Read again to tell which.
    const again = await this.profiles.findOne(clientId, profileId);
    return again?.state === 'active' ? again : null;
  }
}
