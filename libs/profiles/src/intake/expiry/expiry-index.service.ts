import { Injectable } from '@nestjs/common';
import { DueSet, RedisService, type TenantKey } from '@app/shared';
import type { Profile } from '../../domain/profile.schema';
import { profileKey } from '../../keys';

/**
 * When each profile next has a consent or preference due to expire: a Redis sorted set
 * (score: nextExpiryAt in ms, member: `<client>|<profileId>`), so the expiry job reads only
 * the profiles due, by `_id`, and nothing at all when nothing is due. Derived data: the
 * worker adds a profile's entry before it saves it (a crash after that leaves an entry the
 * job checks against the stored profile and corrects) and removes it after a save without
 * anything due; when the set is lost (its `built` marker is missing) the job rebuilds it
 * from the profiles in one pass.
 */
@Injectable()
export class ExpiryIndex extends DueSet {
  constructor(redis: RedisService) {
    super(redis, 'expiry');
  }

  /** Before the save: the profile as it will be stored. */
  async beforeSave(profile: Profile): Promise<void> {
    if (profile.state === 'active' && profile.nextExpiryAt) await this.add([profile]);
  }

  /** After the save: a profile with nothing due any more leaves the set. */
  async afterSave(before: Profile, profile: Profile): Promise<void> {
    const wasDue = before.state === 'active' && before.nextExpiryAt;
    if (wasDue && (profile.state !== 'active' || !profile.nextExpiryAt))
      await this.remove(profile._id);
  }

  async add(profiles: Pick<Profile, '_id' | 'nextExpiryAt'>[]): Promise<void> {
    await this.addDue(
      profiles
        .filter((p) => p.nextExpiryAt)
        .map((p) => [new Date(p.nextExpiryAt!).getTime(), p._id]),
    );
  }

  /**
   * Members due by `asOf`, in due order, `offset` into that order: the profile keys `add`
   * wrote (every client's: the expiry job's deliberate cross-tenant read).
   */
  async due(asOf: Date, offset: number, limit: number): Promise<TenantKey[]> {
    return (await this.dueMembers(asOf, offset, limit)) as TenantKey[];
  }
}

export { profileKey as expiryMember };
