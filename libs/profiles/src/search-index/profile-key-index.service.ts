import { Injectable } from '@nestjs/common';
import { RedisScript, RedisService } from '@app/shared';
import { ProfileRules } from '../domain/profile-rules';
import type { Profile } from '../domain/profile.schema';
import { type KeyQuery, searchKeysOf } from './search-keys';

/**
 * SADD of many sets in one call: KEYS the sets; ARGV per set its member count, then its
 * members. Atomic like a MULTI of the SADDs, and idempotent.
 */
const SADD_MANY = new RedisScript(
  `
local at = 1
for i = 1, #KEYS do
  local n = tonumber(ARGV[at])
  for from = at + 1, at + n, 1000 do
    redis.call('SADD', KEYS[i], unpack(ARGV, from, math.min(from + 999, at + n)))
  end
  at = at + n + 1
end
return #KEYS`,
  null,
);
/** Keys and arguments per SADD_MANY call: Redis runs each call alone, briefly. */
const SADD_MANY_ARGS = 20000;

/**
 * The search key index: per client and key (search-keys.ts) a Redis set of the ids of the
 * profiles holding it, so an exact-match search reads its candidates, not every profile.
 * Maintained by the worker in the same step as each save: keys the new version adds are
 * added before the save (a crash never leaves a saved profile missing from the index),
 * keys it drops are removed after (a crash leaves a stale member, which the search's exact
 * check discards). Derived data: when its `built` marker is missing (first start, Redis
 * lost its data) the workers rebuild it from the profiles (SearchKeyIndexRebuild), and
 * searches read the database meanwhile. Redis must not evict these keys (maxmemory-policy
 * noeviction, the default): a partly evicted index would miss profiles.
 */
@Injectable()
export class ProfileKeyIndex {
  constructor(
    private readonly redis: RedisService,
    private readonly rules: ProfileRules,
  ) {}

  /** Before the save of `after`: its keys that `before` lacks. */
  async beforeSave(before: Profile, after: Profile): Promise<void> {
    const had = searchKeysOf(liveData(before), this.rules);
    const added = [...searchKeysOf(liveData(after), this.rules)].filter((key) => !had.has(key));
    await this.apply('sadd', after.clientId, after.profileId, added);
  }

  /**
   * Before the first save of new profiles (a bulk import's batch): all their keys, one SADD
   * per key for all the profiles holding it (the keys of names' character runs are shared
   * by many profiles), sent as a few script calls (SADD_MANY) rather than a command per key:
   * a batch holds thousands of keys, and the client's cost per command was most of this
   * step's CPU.
   */
  beforeCreateMany(profiles: Profile[]): Promise<void> {
    return this.addAll(profiles);
  }

  /**
   * Every key of each profile (its live data), the index's rebuild's page included: the
   * sets SADD_MANY takes, one call per slot and a few thousand arguments.
   */
  async addAll(
    profiles: Pick<Profile, 'clientId' | 'profileId' | 'state' | 'data'>[],
  ): Promise<void> {
    const holders = new Map<string, number[]>();
    for (const profile of profiles) {
      for (const key of searchKeysOf(liveData(profile), this.rules)) {
        const redisKey = this.key(profile.clientId, key);
        const ids = holders.get(redisKey);
        if (ids) ids.push(profile.profileId);
        else holders.set(redisKey, [profile.profileId]);
      }
    }
    const calls: Promise<unknown>[] = [];
    // A call takes sets of one slot (on a cluster; on one Redis any).
    for (const group of this.redis.sameSlotGroups([...holders], ([key]) => key)) {
      let keys: string[] = [];
      let args: (string | number)[] = [];
      const send = () => {
        if (!keys.length) return;
        calls.push(SADD_MANY.run(this.redis.client, keys.length, ...keys, ...args));
        keys = [];
        args = [];
      };
      for (const [key, ids] of group) {
        keys.push(key);
        args.push(ids.length, ...ids);
        if (keys.length + args.length >= SADD_MANY_ARGS) send();
      }
      send();
    }
    await Promise.all(calls);
  }

  /** After the save: the keys `after` no longer has. */
  async afterSave(before: Profile, after: Profile): Promise<void> {
    const has = searchKeysOf(liveData(after), this.rules);
    const dropped = [...searchKeysOf(liveData(before), this.rules)].filter((key) => !has.has(key));
    await this.apply('srem', after.clientId, after.profileId, dropped);
  }

  /**
   * The ids of the client's profiles holding at least one key of every group, ascending;
   * null while the index is not built (the caller reads the database instead).
   */
  async candidates(clientId: string, query: KeyQuery): Promise<number[] | null> {
    if (!query.length) return null;
    if (!this.redis.available || !(await this.isBuilt())) return null;
    let ids: Set<string> | undefined;
    for (const group of query) {
      const members = await this.union(group.map((key) => this.key(clientId, key)));
      ids = ids ? new Set(members.filter((id) => ids!.has(id))) : new Set(members);
      if (!ids.size) break;
    }
    return [...(ids ?? [])].map(Number).sort((a, b) => a - b);
  }

  async isBuilt(): Promise<boolean> {
    return (await this.redis.client.exists(this.builtKey())) === 1;
  }

  /** `<prefix>:kx:built`: set (epoch-guarded) when the rebuild's last partition is done. */
  builtKey(): string {
    return this.redis.key('kx', 'built');
  }

  private async apply(
    op: 'sadd' | 'srem',
    clientId: string,
    profileId: number,
    keys: string[],
  ): Promise<void> {
    if (!keys.length) return;
    // Sent at once (auto-pipelined), not as a pipeline: the sets are in different slots.
    await Promise.all(keys.map((key) => this.redis.client[op](this.key(clientId, key), profileId)));
  }

  /** SUNION of the sets, one command per slot they are in (one on a single Redis). */
  private async union(keys: string[]): Promise<string[]> {
    const groups = this.redis.sameSlotGroups(keys, (key) => key);
    if (groups.length === 1) return this.redis.client.sunion(...groups[0]);
    const answers = await Promise.all(groups.map((group) => this.redis.client.sunion(...group)));
    return [...new Set(answers.flat())];
  }

  /** `<prefix>:kx:{<client>:<key>}`: each set in a slot of its own. */
  private key(clientId: string, key: string): string {
    return this.redis.tagged('kx', clientId + ':' + key);
  }
}

/**
 * What a profile is found by: its data while it exists (a deleted one has none; a merged
 * one keeps its data for its survivor's absorb, but searches find only the survivor).
 */
function liveData(profile: Pick<Profile, 'state' | 'data'>) {
  return profile.state === 'deleted' || profile.state === 'merged' ? undefined : profile.data;
}
