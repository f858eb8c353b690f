import { Injectable } from '@nestjs/common';
import type { Profile } from '../domain/profile.schema';
import { ProfileRepository, type StoredProfilePage } from '../persistence/profile.repository';

export type { StoredProfilePage } from '../persistence/profile.repository';

/**
 * The port through which the reports' rebuild reads a client's profiles as stored: ids
 * `from`, `from + 1`, ... each by `_id` (ids are claimed densely from 1, as the bulk
 * export reads them), so a rebuild costs one `_id` read per profile on any engine, never a
 * scan. Also one profile by `_id` (a read the rebuild must take again).
 */
@Injectable()
export class ProfileCountSource {
  constructor(private readonly profiles: ProfileRepository) {}

  /** Reads ids `from` to `from + count - 1`, stopping at the end of the client's ids. */
  read(clientId: string, from: number, count: number): Promise<StoredProfilePage> {
    return this.profiles.readIdRange(clientId, from, count);
  }

  one(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findOne(clientId, profileId);
  }
}
