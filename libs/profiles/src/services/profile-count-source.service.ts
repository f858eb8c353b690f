import { Injectable } from '@nestjs/common';
import type { Profile } from '../domain/profile.schema';
import { ProfileRepository } from '../repositories/profile.repository';

/** What one read of a range of profile ids found, as stored. */
export interface StoredProfilePage {
  /** Every document of the range (pending shells and tombstones included), in id order. */
  profiles: Profile[];
  /** The next profile id to read. */
  next: number;
  /** true: an id past the client's last claimed id is missing, so no profile follows. */
  done: boolean;
}

/** Documents read at once (each by `_id`). */
const READ_PARALLEL = 20;

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
  async read(clientId: string, from: number, count: number): Promise<StoredProfilePage> {
    const last = await this.profiles.lastClaimedId(clientId);
    const profiles: Profile[] = [];
    const end = from + count;
    for (let id = from; id < end; id += READ_PARALLEL) {
      const ids = Array.from({ length: Math.min(READ_PARALLEL, end - id) }, (_, i) => id + i);
      const docs = await Promise.all(ids.map((n) => this.profiles.findOne(clientId, n)));
      for (let i = 0; i < ids.length; i++) {
        const doc = docs[i];
        // Below the hint's last an id may be missing (reserved, unused); past it, the end.
        if (!doc) {
          if (ids[i] > last) return { profiles, next: ids[i], done: true };
          continue;
        }
        profiles.push(doc);
      }
    }
    return { profiles, next: end, done: false };
  }

  one(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findOne(clientId, profileId);
  }
}
