import { Injectable } from '@nestjs/common';
import { RedisService } from '@app/shared';
import { ProfileRules } from '../../domain/profile-rules';
import type { Profile } from '../../domain/profile.schema';
import { ProfileSettings } from '../../profile-settings';
import { ADD_IDS, idsInEveryGroup, QUERY_IDS, REMOVE_IDS } from './key-set-encoding';
import { type KeyQuery, searchKeysOf } from './search-keys';

/** Keys and arguments per ADD_IDS call: Redis runs each call alone, briefly. */
const ADD_IDS_ARGS = 20000;

/**
 * The search key index: per client and key (search-keys.ts) the ids of the profiles holding
 * it, kept compactly (key-set-encoding.ts: a small set of ids, or one split into intset parts
 * by id range), so an exact-match search reads its candidates, not every profile.
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
    private readonly settings: ProfileSettings,
  ) {}

  /** Before the save of `after`: its keys that `before` lacks. */
  async beforeSave(before: Profile, after: Profile): Promise<void> {
    const had = searchKeysOf(liveData(before), this.rules);
    const added = [...searchKeysOf(liveData(after), this.rules)].filter((key) => !had.has(key));
    await this.add(new Map(added.map((key) => [this.key(after.clientId, key), [after.profileId]])));
  }

  /**
   * Before the first save of new profiles (a bulk import's batch): all their keys, one SADD
   * per key for all the profiles holding it (the keys of names' character runs are shared
   * by many profiles), sent as a few script calls (ADD_IDS) rather than a command per key:
   * a batch holds thousands of keys, and the client's cost per command was most of this
   * step's CPU.
   */
  beforeCreateMany(profiles: Profile[]): Promise<void> {
    return this.addAll(profiles);
  }

  /**
   * Every key of each profile (its live data), the index's rebuild's page included: the
   * sets ADD_IDS takes, one call per slot and a few thousand arguments.
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
    await this.add(holders);
  }

  /** The ids of each set added (ADD_IDS), one call per slot and a few thousand arguments. */
  private async add(holders: Map<string, number[]>): Promise<void> {
    const limit = this.settings.searchIndexSetSplit;
    const calls: Promise<unknown>[] = [];
    // A call takes sets of one slot (on a cluster; on one Redis any).
    for (const group of this.redis.sameSlotGroups([...holders], ([key]) => key)) {
      let keys: string[] = [];
      let args: (string | number)[] = [];
      const send = () => {
        if (!keys.length) return;
        calls.push(ADD_IDS.run(this.redis.client, keys.length, ...keys, limit, ...args));
        keys = [];
        args = [];
      };
      for (const [key, ids] of group) {
        keys.push(key);
        args.push(ids.length, ...ids);
        if (keys.length + args.length >= ADD_IDS_ARGS) send();
      }
      send();
    }
    await Promise.all(calls);
  }

  /** After the save: the keys `after` no longer has. */
  async afterSave(before: Profile, after: Profile): Promise<void> {
    const has = searchKeysOf(liveData(after), this.rules);
    const dropped = [...searchKeysOf(liveData(before), this.rules)].filter((key) => !has.has(key));
    // Sent at once (auto-pipelined): the sets are in different slots.
    await Promise.all(
      dropped.map((key) =>
        REMOVE_IDS.run(this.redis.client, this.key(after.clientId, key), after.profileId),
      ),
    );
  }

  /**
   * The ids of the client's profiles holding at least one key of every group, ascending;
   * null while the index is not built (the caller reads the database instead).
   */
  async candidates(clientId: string, query: KeyQuery): Promise<number[] | null> {
    if (!query.length || !this.redis.available) return null;
    const groups = query.map((group) => group.map((key) => this.key(clientId, key)));
    if (!this.redis.cluster) {
      // One call, the built marker with the keys (one Redis takes any keys together).
      return (await this.query(groups, this.builtKey()))?.sort((a, b) => a - b) ?? null;
    }
    if (!(await this.isBuilt())) return null;
    // A cluster: each key in a slot of its own, so one call per group and slot, sent at
    // once (auto-pipelined), and the intersection here.
    const answers = await Promise.all(
      groups.map((keys) =>
        Promise.all(
          this.redis
            .sameSlotGroups(keys, (key) => key)
            .map(async (same) => (await this.query([same])) ?? []),
        ),
      ),
    );
    return idsInEveryGroup(answers);
  }

  async isBuilt(): Promise<boolean> {
    return (await this.redis.client.exists(this.builtKey())) === 1;
  }

  /** `<prefix>:kx:built`: set (epoch-guarded) when the rebuild's last partition is done. */
  builtKey(): string {
    return this.redis.key('kx', 'built');
  }

  /**
   * The ids held by a key of every group (QUERY_IDS: the groups' keys share a slot); null
   * when `builtKey` is given and missing.
   */
  private async query(groups: string[][], builtKey?: string): Promise<number[] | null> {
    const keys = builtKey ? [...groups.flat(), builtKey] : groups.flat();
    const counts = groups.map((group) => group.length);
    return (await QUERY_IDS.run(this.redis.client, keys.length, ...keys, ...counts)) as
      number[] | null;
  }

  /** `<prefix>:kx:{<client>:<key>}`: each key (with its parts) in a slot of its own. */
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
