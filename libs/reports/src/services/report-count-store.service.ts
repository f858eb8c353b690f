import { Injectable } from '@nestjs/common';
import type { CountDelta } from '@app/profiles';
import { RedisScript, RedisService } from '@app/shared';
import { type ReportKeys, reportKeys } from '../keys';

/**
 * Applies the deltas of some profiles, each at most once: a profile's delta counts only
 * when the profile's mark (`seen`: the appliedSeq its counts reached, 0 when absent) is
 * at or below the delta's `from`; the mark then moves to its `to`. A delta at or below the
 * mark was counted before (skipped); one that starts below it and ends above it cannot be
 * counted exactly (a save that landed after a later one, see docs/reports.md) and is
 * counted as drift. The daily counts have a mark of their own (`told`), which a rebuild
 * never replaces: a rebuild may take in a saved change its profile's job has not counted
 * yet (its counts mark then moves past it), and that change's events must still count
 * when the job comes. Current counts change only once the client's counts are built
 * (after a loss they would be wrong: the caller asks for a rebuild); daily counts always.
 * While a
 * rebuild runs, a profile it has read gets the delta in the rebuild's counts too (by its
 * own mark), and one it has not read yet is noted as late (the rebuild's end reads every
 * late profile it has no mark of: none is missed, whatever its id).
 *
 * KEYS: now, seen, meta, rb:now, rb:seen, late, told. ARGV: day prefix, JSON [{p, d: [delta]}].
 * Answers {state, applied, drift}: state 0 built, 1 not built (no rebuild), 2 rebuilding.
 * Day hashes are named by the script from the prefix: they share the client's hash tag.
 */
const APPLY = new RedisScript(
  `
local built = redis.call('HEXISTS', KEYS[3], 'built') == 1
local rebuilding = redis.call('HGET', KEYS[3], 'rebuild')
local function add(hash, key, n)
  if redis.call('HINCRBY', hash, key, n) == 0 then redis.call('HDEL', hash, key) end
end
local applied, drift = 0, 0
for _, item in ipairs(cjson.decode(ARGV[2])) do
  local pid = tostring(item.p)
  local seen = tonumber(redis.call('HGET', KEYS[2], pid) or '0')
  local told = tonumber(redis.call('HGET', KEYS[7], pid) or '0')
  local mark = nil
  if rebuilding then
    local r = redis.call('HGET', KEYS[5], pid)
    if r then mark = tonumber(r) else redis.call('SADD', KEYS[6], pid) end
  end
  for _, d in ipairs(item.d) do
    if seen < d.to then
      if seen <= d.from then
        applied = applied + 1
        if built and d.counts then
          for key, n in pairs(d.counts) do add(KEYS[1], key, n) end
        end
      else
        drift = drift + 1
      end
      seen = d.to
    end
    if told < d.to then
      if told <= d.from and d.daily then
        for day, keys in pairs(d.daily) do
          for key, n in pairs(keys) do add(ARGV[1] .. day, key, n) end
        end
      end
      told = d.to
    end
    if mark and mark < d.to then
      if mark <= d.from and d.counts then
        for key, n in pairs(d.counts) do add(KEYS[4], key, n) end
      end
      mark = d.to
    end
  end
  redis.call('HSET', KEYS[2], pid, seen)
  redis.call('HSET', KEYS[7], pid, told)
  if mark then redis.call('HSET', KEYS[5], pid, mark) end
end
if drift > 0 and built then redis.call('HINCRBY', KEYS[3], 'drift', drift) end
local state = 0
if not built then state = rebuilding and 2 or 1 end
return {state, applied, drift}
`,
  7,
);

/**
 * Starts a rebuild, or adopts the one under way (resumed from its cursor) unless
 * `restart`. KEYS: meta, rb:now, rb:seen, late. ARGV: new token, restart (1/0).
 * Answers {token, cursor}.
 */
const START_REBUILD = new RedisScript(
  `
local current = redis.call('HGET', KEYS[1], 'rebuild')
if current and ARGV[2] ~= '1' then
  return {current, redis.call('HGET', KEYS[1], 'cursor') or '0'}
end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('HSET', KEYS[1], 'rebuild', ARGV[1], 'cursor', '0')
return {ARGV[1], '0'}
`,
  4,
);

/**
 * One page of a rebuild: each profile read at appliedSeq s adds its summary to the
 * rebuild's counts and gets the rebuild's mark s, unless the live mark is already past s
 * (a later save was counted since the read: it is noted as late and read again). Then the
 * cursor moves. KEYS: meta, seen, rb:now, rb:seen, late. ARGV: token, cursor, JSON
 * [{p, s, c}]. Answers the late profile ids, or -1 when the rebuild was superseded.
 */
const REBUILD_PAGE = new RedisScript(
  `
if redis.call('HGET', KEYS[1], 'rebuild') ~= ARGV[1] then return -1 end
local late = {}
for _, item in ipairs(cjson.decode(ARGV[3])) do
  local pid = tostring(item.p)
  local live = tonumber(redis.call('HGET', KEYS[2], pid) or '0')
  if live > item.s then
    redis.call('SADD', KEYS[5], pid)
    table.insert(late, item.p)
  else
    for key, n in pairs(item.c) do redis.call('HINCRBY', KEYS[3], key, n) end
    redis.call('HSET', KEYS[4], pid, item.s)
    redis.call('SREM', KEYS[5], pid)
  end
end
if tonumber(ARGV[2]) > tonumber(redis.call('HGET', KEYS[1], 'cursor') or '0') then
  redis.call('HSET', KEYS[1], 'cursor', ARGV[2])
end
return late
`,
  5,
);

/**
 * The end of a rebuild: unless a late profile has no rebuild mark yet (answered: read them
 * first), the rebuild's counts and marks replace the live ones at once (RENAME), and the
 * counts are built. KEYS: meta, now, seen, rb:now, rb:seen, late. ARGV: token, built-at.
 * Answers {} when swapped, the missing ids, or -1 when superseded.
 */
const FINISH_REBUILD = new RedisScript(
  `
if redis.call('HGET', KEYS[1], 'rebuild') ~= ARGV[1] then return -1 end
local missing = {}
for _, pid in ipairs(redis.call('SMEMBERS', KEYS[6])) do
  if redis.call('HEXISTS', KEYS[5], pid) == 0 then table.insert(missing, tonumber(pid)) end
end
if #missing > 0 then return missing end
if redis.call('EXISTS', KEYS[4]) == 1 then redis.call('RENAME', KEYS[4], KEYS[2]) else redis.call('DEL', KEYS[2]) end
if redis.call('EXISTS', KEYS[5]) == 1 then redis.call('RENAME', KEYS[5], KEYS[3]) else redis.call('DEL', KEYS[3]) end
redis.call('DEL', KEYS[6])
redis.call('HDEL', KEYS[1], 'rebuild', 'cursor', 'drift')
redis.call('HSET', KEYS[1], 'built', ARGV[2])
return {}
`,
  6,
);

/** A profile's deltas to count. */
export interface ProfileDeltas {
  profileId: number;
  deltas: CountDelta[];
}

export interface ApplyOutcome {
  /** The client's counts are built (else they wait for a rebuild). */
  built: boolean;
  /** Not built and no rebuild under way: one should be queued. */
  needsRebuild: boolean;
  applied: number;
  drift: number;
}

/** A profile as a rebuild page counts it. */
export interface RebuildItem {
  profileId: number;
  appliedSeq: number;
  counts: Record<string, number>;
}

/** The state of a client's counts (GET routes, the page). */
export interface CountsMeta {
  /** When the counts were last built by a rebuild (absent: not built). */
  builtAt?: string;
  /** A rebuild under way: the last profile id it read. */
  rebuildCursor?: number;
  /** Deltas that could not be counted exactly since the last rebuild. */
  drift: number;
}

/** What a rebuild's end found. */
export type FinishOutcome = { swapped: true } | { swapped: false; read: number[] } | 'superseded';

/**
 * The reports' counters in Redis (docs/reports.md, "Storage"): every change is one Lua
 * script (atomic), every read a bounded hash: the size of a client's counts follows its
 * configuration, never its number of profiles.
 */
@Injectable()
export class ReportCountStore {
  constructor(private readonly redis: RedisService) {}

  keys(clientId: string): ReportKeys {
    return reportKeys(this.redis.tagged('rp', clientId));
  }

  /**
   * The appliedSeq each profile's counts reached (0: none): the lower of its current and
   * daily marks (a change is counted once both hold it).
   */
  async marks(clientId: string, profileIds: number[]): Promise<number[]> {
    if (!profileIds.length) return [];
    const k = this.keys(clientId);
    const fields = profileIds.map(String);
    const [seen, told] = await Promise.all([
      this.redis.client.hmget(k.seen, ...fields),
      this.redis.client.hmget(k.told, ...fields),
    ]);
    return seen.map((value, i) => Math.min(Number(value ?? 0), Number(told[i] ?? 0)));
  }

  async apply(clientId: string, items: ProfileDeltas[]): Promise<ApplyOutcome> {
    const k = this.keys(clientId);
    const payload = JSON.stringify(
      items.map(({ profileId, deltas }) => ({ p: profileId, d: deltas })),
    );
    const [state, applied, drift] = (await APPLY.run(
      this.redis.client,
      k.now,
      k.seen,
      k.meta,
      k.rebuildNow,
      k.rebuildSeen,
      k.late,
      k.told,
      k.dayPrefix,
      payload,
    )) as [number, number, number];
    return { built: state === 0, needsRebuild: state === 1, applied, drift };
  }

  /** Whether this caller should queue a rebuild (one per client per 5 minutes). */
  async claimRebuildRequest(clientId: string): Promise<boolean> {
    const set = await this.redis.client.set(this.keys(clientId).queued, '1', 'EX', 300, 'NX');
    return set === 'OK';
  }

  async clearRebuildRequest(clientId: string): Promise<void> {
    await this.redis.client.del(this.keys(clientId).queued);
  }

  async startRebuild(
    clientId: string,
    token: string,
    restart: boolean,
  ): Promise<{ token: string; cursor: number }> {
    const k = this.keys(clientId);
    const [current, cursor] = (await START_REBUILD.run(
      this.redis.client,
      k.meta,
      k.rebuildNow,
      k.rebuildSeen,
      k.late,
      token,
      restart ? '1' : '0',
    )) as [string, string];
    return { token: current, cursor: Number(cursor) };
  }

  /** Answers the ids read too early (read them again), or 'superseded'. */
  async rebuildPage(
    clientId: string,
    token: string,
    cursor: number,
    items: RebuildItem[],
  ): Promise<number[] | 'superseded'> {
    const k = this.keys(clientId);
    const payload = JSON.stringify(
      items.map(({ profileId, appliedSeq, counts }) => ({
        p: profileId,
        s: appliedSeq,
        c: counts,
      })),
    );
    const late = (await REBUILD_PAGE.run(
      this.redis.client,
      k.meta,
      k.seen,
      k.rebuildNow,
      k.rebuildSeen,
      k.late,
      token,
      cursor,
      payload,
    )) as number[] | number;
    return late === -1 ? 'superseded' : (late as number[]);
  }

  async finishRebuild(clientId: string, token: string, builtAt: Date): Promise<FinishOutcome> {
    const k = this.keys(clientId);
    const answer = (await FINISH_REBUILD.run(
      this.redis.client,
      k.meta,
      k.now,
      k.seen,
      k.rebuildNow,
      k.rebuildSeen,
      k.late,
      token,
      builtAt.toISOString(),
    )) as number[] | number;
    if (answer === -1) return 'superseded';
    const read = answer as number[];
    return read.length ? { swapped: false, read } : { swapped: true };
  }

  /** The current counts and their state: two reads of bounded hashes, one round trip. */
  async current(clientId: string): Promise<{ counts: Map<string, number>; meta: CountsMeta }> {
    const k = this.keys(clientId);
    const [counts, meta] = await Promise.all([
      this.redis.client.hgetall(k.now),
      this.redis.client.hgetall(k.meta),
    ]);
    return { counts: numbers(counts), meta: metaOf(meta) };
  }

  async meta(clientId: string): Promise<CountsMeta> {
    return metaOf(await this.redis.client.hgetall(this.keys(clientId).meta));
  }

  /** The events of each day (at most 400 bounded hashes, in one pipeline). */
  async days(clientId: string, days: string[]): Promise<Map<string, number>[]> {
    const { dayPrefix } = this.keys(clientId);
    const pipeline = this.redis.client.pipeline();
    for (const day of days) pipeline.hgetall(`${dayPrefix}${day}`);
    const answers = (await pipeline.exec()) ?? [];
    return answers.map(([error, value]) => {
      if (error) throw error;
      return numbers(value as Record<string, string>);
    });
  }
}

function numbers(hash: Record<string, string>): Map<string, number> {
  return new Map(Object.entries(hash).map(([key, value]) => [key, Number(value)]));
}

function metaOf(hash: Record<string, string>): CountsMeta {
  return {
    ...(hash.built ? { builtAt: hash.built } : {}),
    ...(hash.rebuild ? { rebuildCursor: Number(hash.cursor ?? 0) } : {}),
    drift: Number(hash.drift ?? 0),
  };
}
