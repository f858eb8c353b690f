import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { slotOf, taggedKey } from '../redis/redis-keys';
import { Settings } from '../settings/settings';
import { JOBS_QUEUE } from './queue.constants';
import { RedisScript } from './redis-script';

export { RedisScript } from './redis-script';

/**
 * Leases and their epoch keys are spread over this many hash tags (`{lease<n>}`): a lease
 * and the epoch its acquisition reads share a slot, so on a cluster each node records the
 * loss of its own data, and leases still spread over every node.
 */
const LEASE_BUCKETS = 256;

/** The bucket (hash tag) of a lease: by the slot of its name, so it spreads as names do. */
function leaseTag(name: string): string {
  return 'lease' + (slotOf(name) % LEASE_BUCKETS);
}

/** The key of the lease `name`: `<prefix>:lease:{lease<n>}:<name>`. */
export function leaseKey(prefix: string, name: string): string {
  return taggedKey(prefix, 'lease', leaseTag(name)) + ':' + name;
}

/** The epoch key that the acquisition of `name` reads (its bucket's). */
function leaseEpochKey(prefix: string, tag: string): string {
  return taggedKey(prefix, 'lease-epoch', tag);
}

/**
 * Takes a lease unless Redis lost its data less than the lease's TTL ago. The epoch key
 * (one per bucket of leases, in the lease's slot) holds when the leases' Redis started (0:
 * before any lease was taken, set by each process as it starts); a Redis that restarted
 * empty has none, and the first acquisition after it records the restart (Redis's own
 * clock). Until a TTL has passed since, a holder from before the loss may still be working
 * (its lease key is gone, so nothing else tells it), and nothing is granted: the answer is
 * then how many ms are left of that wait.
 */
const ACQUIRE_SCRIPT = `
local t = redis.call("time")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local epoch = redis.call("get", KEYS[2])
if not epoch then
  epoch = now
  redis.call("set", KEYS[2], epoch)
end
if now < tonumber(epoch) + tonumber(ARGV[2]) then return tonumber(epoch) + tonumber(ARGV[2]) - now end
return redis.call("set", KEYS[1], ARGV[1], "PX", ARGV[2], "NX")`;
const EXTEND_SCRIPT =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';
const RELEASE_SCRIPT =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

const ACQUIRE = new RedisScript(ACQUIRE_SCRIPT, 2);
const EXTEND = new RedisScript(EXTEND_SCRIPT, 1);
const RELEASE = new RedisScript(RELEASE_SCRIPT, 1);

/** What an acquisition got: the lease's token, or null and why not when Redis was lost. */
export type LeaseAttempt = { token: string } | { token: null; afterLossMs?: number };

/**
 * Short exclusive leases in Redis (one writer per profile at a time). A lease that
 * outlives its holder expires by itself; holders renew theirs while they work (`extend`,
 * which also tells a holder that lost it). The embedded engine offers no conditional write
 * by `_id`, so a lease cannot fence a save: the profile worker renews right before each
 * save and stops when the renewal fails.
 *
 * Redis restarted empty loses every lease while its holders still work: the process itself
 * remembers what it holds (until its last renewal's TTL ends) and refuses those names to
 * its other jobs, and no process is granted any lease until a TTL after the loss
 * (ACQUIRE_SCRIPT), so two holders never work on one profile (they would overwrite each
 * other's history pages: `npm run chaos` found it).
 */
@Injectable()
export class LeaseService implements OnModuleInit {
  private readonly logger = new Logger('LeaseService');
  /** The leases this process holds, until when (its last grant or renewal plus the TTL). */
  private readonly held = new Map<string, number>();

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    private readonly settings: Settings,
  ) {}

  /** A Redis that starts empty under a starting process: no earlier holder to wait for. */
  async onModuleInit(): Promise<void> {
    const buckets = Array.from({ length: LEASE_BUCKETS }, (_, n) => 'lease' + n);
    await Promise.all(
      buckets.map((tag) =>
        this.queue.client.set(leaseEpochKey(this.settings.queuePrefix, tag), '0', 'NX'),
      ),
    ).catch((error: unknown) => {
      this.logger.warn(`lease epochs not set (Redis unavailable): ${String(error)}`);
    });
  }

  async acquire(name: string, ttlMs: number): Promise<string | null> {
    return (await this.tryAcquire(name, ttlMs)).token;
  }

  /**
   * `acquire`, telling a refusal after a loss of Redis apart: `afterLossMs` is how long no
   * lease is granted yet (a holder from before the loss may still work), so a caller can
   * come back exactly then instead of backing off blindly.
   */
  async tryAcquire(name: string, ttlMs: number): Promise<LeaseAttempt> {
    const until = this.held.get(name);
    if (until !== undefined) {
      if (until > Date.now()) return { token: null };
      this.held.delete(name);
    }
    const token = randomUUID();
    const startedAt = Date.now();
    const ok = await ACQUIRE.run(
      this.queue.client,
      this.key(name),
      leaseEpochKey(this.settings.queuePrefix, leaseTag(name)),
      token,
      ttlMs,
    );
    if (typeof ok === 'number') return { token: null, afterLossMs: ok };
    if (ok !== 'OK') return { token: null };
    this.held.set(name, startedAt + ttlMs);
    return { token };
  }

  /** Waits for the lease up to `waitMs`, polling; null when it stayed taken. */
  async acquireWithin(name: string, ttlMs: number, waitMs: number): Promise<string | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const token = await this.acquire(name, ttlMs);
      if (token || Date.now() >= deadline) return token;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Renews a lease still held with `token`; false when it was lost meanwhile. */
  async extend(name: string, token: string, ttlMs: number): Promise<boolean> {
    const startedAt = Date.now();
    const held = (await EXTEND.run(this.queue.client, this.key(name), token, ttlMs)) === 1;
    if (held) this.held.set(name, startedAt + ttlMs);
    return held;
  }

  /**
   * Runs `work` under a lease just acquired with `token`: renewed every third of `ttlMs`
   * while it runs (a long run keeps it), released when it ends, however it ends.
   */
  async whileHeld<T>(
    name: string,
    token: string,
    ttlMs: number,
    work: () => Promise<T>,
  ): Promise<T> {
    const renewal = setInterval(
      () => void this.extend(name, token, ttlMs).catch(() => undefined),
      Math.ceil(ttlMs / 3),
    );
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      await this.release(name, token).catch(() => false);
    }
  }

  /** Releases a lease still held with `token`; false when it was lost meanwhile. */
  async release(name: string, token: string): Promise<boolean> {
    this.held.delete(name);
    return (await RELEASE.run(this.queue.client, this.key(name), token)) === 1;
  }

  private key(name: string): string {
    return leaseKey(this.settings.queuePrefix, name);
  }
}
