import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { pinnedKey } from '../redis/redis-keys';
import { Settings } from '../settings/settings';
import { type JobLane, JOBS_QUEUE } from './queue.constants';
import { RedisScript } from './redis-script';

/**
 * One unit of a tenant's work waiting for a worker slot: the job it runs (by its
 * definition's name) with its payload. `id` makes the item unique in its list (so that an
 * enqueue that failed after its push removes exactly its own item).
 */
export interface FairItem<P = unknown> {
  id: string;
  job: string;
  tenant: string;
  lane: JobLane;
  payload: P;
}

/**
 * How many items an entry may take in one turn of the ring: a tenant's interactive work
 * four, its background work (bulk imports and exports, the scheduled jobs' writes, the
 * sweeper's) one. So between two items of one entry, every other entry with work gets its
 * turn; a tenant's background work gets a fifth of what its interactive work gets while
 * both wait, and all of a slot when nothing else waits.
 */
export const FAIR_WEIGHTS: Record<JobLane, number> = { interactive: 4, bulk: 1 };

/** A taken item is kept this long for the retries of the turn that took it. */
const TAKEN_TTL_MS = 60 * 60 * 1000;
/**
 * A taken item counts as running (against TENANT_MAX_RUNNING) this long after its take or
 * its last renewal (`renew`, every FAIR_RUNNING_RENEW_MS while it runs): a killed worker's
 * items free their places within it (their turns come back as stalled Bull jobs later).
 */
const RUNNING_TTL_MS = 15_000;
export const FAIR_RUNNING_RENEW_MS = 5_000;
/** A ring with work and no take for this long gets a turn per entry (see `topUp`). */
export const FAIR_IDLE_TOP_UP_MS = 10_000;

// KEYS: the entry's list, the ring, the set of entries in the ring.
// ARGV: the entry, the item. Appends the item; an entry that had no work joins the ring's end.
const PUSH = `
redis.call('RPUSH', KEYS[1], ARGV[2])
if redis.call('SADD', KEYS[3], ARGV[1]) == 1 then redis.call('RPUSH', KEYS[2], ARGV[1]) end
return 1`;

// KEYS: the ring, the set of entries in it, the credit hash, this turn's taken key, the
// last-take time, the set of tenants with owed turns. ARGV: the entry lists' key prefix, the
// weights (interactive, bulk), the taken key's TTL, the time (ms), the running cap (0: none),
// a running mark's TTL, the running sets' key prefix, this turn's id, the owed counters' key
// prefix.
// A turn that took an item before (a retry of a turn whose worker died or failed) gets the
// same item again. Otherwise the ring's first entry whose tenant runs fewer items than the
// cap gives its oldest item; the entry stays where it is until it has given its weight's
// worth of items in this turn of the ring, then moves to the end; an entry left without
// items leaves the ring. A turn that finds only capped tenants' work takes nothing and
// counts itself owed to the first of them: that tenant's next finished item gives it back
// (DONE). Counted per tenant, not per job: a turn owed to a tenant's writes must come back
// when any of its items finishes, or the tenant's other work would wait for turns that only
// the writes give back.
const TAKE = `
local cap = tonumber(ARGV[6])
local function tenantOf(entry)
  return string.match(entry, '^(.*)|[^|]*$')
end
local function mark(tenant)
  redis.call('ZADD', ARGV[8] .. tenant, tonumber(ARGV[5]) + tonumber(ARGV[7]), ARGV[9])
end
local taken = redis.call('GET', KEYS[4])
if taken then
  if cap > 0 then mark(cjson.decode(taken).tenant) end
  return taken
end
redis.call('SET', KEYS[5], ARGV[5])
local i = 0
local skipped = nil
for _ = 1, 1000 do
  local entry = redis.call('LINDEX', KEYS[1], i)
  if not entry then break end
  local tenant = tenantOf(entry)
  local capped = false
  if cap > 0 then
    local run = ARGV[8] .. tenant
    redis.call('ZREMRANGEBYSCORE', run, '-inf', ARGV[5])
    capped = redis.call('ZCARD', run) >= cap
  end
  if capped then
    skipped = skipped or tenant
    i = i + 1
  else
    local list = ARGV[1] .. entry
    local item = redis.call('LPOP', list)
    local left = redis.call('LLEN', list)
    if left == 0 then
      redis.call('LREM', KEYS[1], 1, entry)
      redis.call('SREM', KEYS[2], entry)
      redis.call('HDEL', KEYS[3], entry)
    elseif item then
      local weight = tonumber(ARGV[2])
      if string.sub(entry, -5) == '|bulk' then weight = tonumber(ARGV[3]) end
      if redis.call('HINCRBY', KEYS[3], entry, 1) >= weight then
        redis.call('LREM', KEYS[1], 1, entry)
        redis.call('RPUSH', KEYS[1], entry)
        redis.call('HDEL', KEYS[3], entry)
      end
    end
    if item then
      redis.call('SET', KEYS[4], item, 'PX', ARGV[4])
      if cap > 0 then mark(tenant) end
      return item
    end
  end
end
if skipped then
  redis.call('INCR', ARGV[10] .. skipped)
  redis.call('SADD', KEYS[6], skipped)
end
return false`;

// KEYS: the turn's taken key, its tenant's running set, the tenant's owed turns. ARGV: the
// turn's id. The item is done: no longer running; 1 when a turn is owed to its tenant (taken
// back here, to be added by the caller), else 0.
const DONE = `
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
local owed = tonumber(redis.call('GET', KEYS[3]) or '0')
if owed > 0 then
  redis.call('DECR', KEYS[3])
  return 1
end
return 0`;

// KEYS: the ring, the last-take time. ARGV: the time (ms), the idle bound (ms).
// The ring's length when it has work and nobody took any for the idle bound, else 0.
const IDLE = `
local n = redis.call('LLEN', KEYS[1])
if n == 0 then return 0 end
local last = tonumber(redis.call('GET', KEYS[2]) or '0')
if tonumber(ARGV[1]) - last < tonumber(ARGV[2]) then return 0 end
redis.call('SET', KEYS[2], ARGV[1])
return n`;

// KEYS: the set of tenants with owed turns. ARGV: the running sets' key prefix, the owed
// counters' key prefix, the running cap, the time (ms). Turns owed to a tenant that has room
// although no item of it finished (its running marks lapsed: a killed worker, a lost
// `done`), taken back; how many. Taking back one too many is harmless: a turn that finds
// the tenant capped again is owed again.
const RECLAIM = `
local total = 0
for _, tenant in ipairs(redis.call('SMEMBERS', KEYS[1])) do
  local owedKey = ARGV[2] .. tenant
  local owed = tonumber(redis.call('GET', owedKey) or '0')
  if owed <= 0 then
    redis.call('SREM', KEYS[1], tenant)
    redis.call('DEL', owedKey)
  else
    local run = ARGV[1] .. tenant
    redis.call('ZREMRANGEBYSCORE', run, '-inf', ARGV[4])
    local room = tonumber(ARGV[3]) - redis.call('ZCARD', run)
    if room > 0 then
      local give = math.min(room, owed)
      redis.call('DECRBY', owedKey, give)
      total = total + give
    end
  end
end
return total`;

const PUSH_SCRIPT = new RedisScript(PUSH, 3);
const TAKE_SCRIPT = new RedisScript(TAKE, 6);
const DONE_SCRIPT = new RedisScript(DONE, 3);
const IDLE_SCRIPT = new RedisScript(IDLE, 2);
const RECLAIM_SCRIPT = new RedisScript(RECLAIM, 1);

/**
 * Per-tenant queues served round robin (deficit round robin over weighted entries), kept in
 * Redis beside Bull's own keys, so that every worker serves every tenant's work in the same
 * fair order however many api processes accepted it and however many workers run.
 *
 * An entry is `<tenant>|<lane>` with a list of items; the ring lists the entries that have
 * items. Bull carries only "turns": one `tenant-turn` job per item pushed, all alike. A
 * worker running a turn takes the next item of the ring (TAKE) and runs that item's job, so
 * the order work is done in is the ring's, not the order it arrived in: a tenant with 20,000
 * items waiting and a tenant with one each get every other slot. Bull still gives each turn
 * its retries, its stalled-job recovery (the item a turn took is kept under the turn's job
 * id, so a retry runs the same item) and its place on the dashboard.
 *
 * A tenant runs at most TENANT_MAX_RUNNING items at once across all workers: every item
 * runs on the one engine, so a tenant with 24 passes in flight made another tenant's one pass
 * wait behind them in the engine (the noisy-neighbour bench: docs/operations.md). A turn
 * that finds only capped tenants' work takes nothing and is owed to the first of them: that
 * tenant's next item to finish adds a turn back, so turns and waiting items stay equal in
 * number.
 *
 * An item whose turn was never added (its process died between the push and the add) waits
 * for the next turn of anyone; and when the ring has work and no turn took any for
 * FAIR_IDLE_TOP_UP_MS, the workers add a turn per entry (`topUp`): a turn finding nothing
 * ends at once. A Redis that lost its data lost the items with the turns: what they were
 * for is in the engine (a profile's accepted writes) and the sweeper queues it again.
 */
@Injectable()
export class TenantFairQueue {
  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    private readonly settings: Settings,
  ) {}

  async push(item: FairItem): Promise<void> {
    const entry = entryOf(item);
    await PUSH_SCRIPT.run(
      this.queue.client,
      this.key('q', entry),
      this.key('ring'),
      this.key('in-ring'),
      entry,
      JSON.stringify(item),
    );
  }

  /** Takes `item` back out of its list (its turn could not be added). */
  async remove(item: FairItem): Promise<void> {
    await this.queue.client.lrem(this.key('q', entryOf(item)), 1, JSON.stringify(item));
  }

  /** The item of the turn `turnId` (the one it took before, on a retry); null: none waits. */
  async take(turnId: string, now = Date.now()): Promise<FairItem | null> {
    const taken = await TAKE_SCRIPT.run(
      this.queue.client,
      this.key('ring'),
      this.key('in-ring'),
      this.key('credit'),
      this.key('taken', turnId),
      this.key('last-take'),
      this.key('owed-tenants'),
      this.key('q', ''),
      FAIR_WEIGHTS.interactive,
      FAIR_WEIGHTS.bulk,
      TAKEN_TTL_MS,
      now,
      this.settings.tenantMaxRunning,
      RUNNING_TTL_MS,
      this.key('running', ''),
      turnId,
      this.key('owed', ''),
    );
    return typeof taken === 'string' ? (JSON.parse(taken) as FairItem) : null;
  }

  /** The turn's item still runs: its running mark kept (see RUNNING_TTL_MS). */
  async renew(turnId: string, item: FairItem, now = Date.now()): Promise<void> {
    await this.queue.client.zadd(
      this.key('running', item.tenant),
      'XX',
      now + RUNNING_TTL_MS,
      turnId,
    );
  }

  /**
   * The turn's item is done (or failed for good): its tenant's place is free. True when a
   * turn that found only capped tenants' work is owed to it: the caller adds one.
   */
  async done(turnId: string, item: FairItem): Promise<boolean> {
    const owed = await DONE_SCRIPT.run(
      this.queue.client,
      this.key('taken', turnId),
      this.key('running', item.tenant),
      this.key('owed', item.tenant),
      turnId,
    );
    return Number(owed) === 1;
  }

  /**
   * How many turns to add because the ring has work that no turn took for the idle bound
   * (one per entry; 0 otherwise). Called by each worker on a timer.
   */
  async idleEntries(now = Date.now()): Promise<number> {
    const n = await IDLE_SCRIPT.run(
      this.queue.client,
      this.key('ring'),
      this.key('last-take'),
      now,
      FAIR_IDLE_TOP_UP_MS,
    );
    return Number(n);
  }

  /**
   * How many owed turns to add back because their tenant has room that no finished item
   * gave back (running marks that lapsed). Called by each worker on a timer.
   */
  async reclaimOwed(now = Date.now()): Promise<number> {
    if (this.settings.tenantMaxRunning === 0) return 0;
    const n = await RECLAIM_SCRIPT.run(
      this.queue.client,
      this.key('owed-tenants'),
      this.key('running', ''),
      this.key('owed', ''),
      this.settings.tenantMaxRunning,
      now,
    );
    return Number(n);
  }

  /** Entries (tenants with work) and their items, by class: the /metrics gauges. */
  async depth(): Promise<Record<JobLane, { entries: number; items: number }>> {
    const entries = await this.queue.client.lrange(this.key('ring'), 0, -1);
    const lengths = await Promise.all(
      entries.map((entry) => this.queue.client.llen(this.key('q', entry))),
    );
    const depth = { interactive: { entries: 0, items: 0 }, bulk: { entries: 0, items: 0 } };
    entries.forEach((entry, n) => {
      const lane: JobLane = entry.endsWith('|bulk') ? 'bulk' : 'interactive';
      depth[lane].entries++;
      depth[lane].items += lengths[n];
    });
    return depth;
  }

  /** The items waiting, entry by entry in the ring's order (operators and tests). */
  async waiting(): Promise<FairItem[]> {
    const entries = await this.queue.client.lrange(this.key('ring'), 0, -1);
    const items: FairItem[] = [];
    for (const entry of entries) {
      const list = await this.queue.client.lrange(this.key('q', entry), 0, -1);
      items.push(...list.map((raw) => JSON.parse(raw) as FairItem));
    }
    return items;
  }

  /**
   * `<prefix>:{<prefix>:fair}:...`: every key of the fair queue in one slot (one node of a
   * cluster), because TAKE walks the ring and reaches each tenant's list and running set by a
   * name it builds from a prefix, and PUSH and DONE touch the ring with a tenant's keys. The
   * fair queue of another Bull queue than `jobs` (JobDefinition.queue) is a ring of its own,
   * `{<prefix>:<queue>-fair}`, in a slot of its own.
   */
  private key(...parts: string[]): string {
    const family = this.queue.name === JOBS_QUEUE ? 'fair' : `${this.queue.name}-fair`;
    let key = pinnedKey(this.settings.queuePrefix, family);
    for (const part of parts) key += ':' + part;
    return key;
  }
}

function entryOf(item: FairItem): string {
  return `${item.tenant}|${item.lane}`;
}

/** The Bull job of a turn (see TenantFairQueue); served by the worker's JobRunner. */
export const TENANT_TURN_JOB = 'tenant-turn';

/** What a turn carries: nothing (it takes the ring's next item), or its own delayed item. */
export interface TenantTurnPayload {
  item?: FairItem;
}
