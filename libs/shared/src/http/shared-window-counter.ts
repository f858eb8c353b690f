import { RedisScript } from '../queue/redis-script';
import type { RedisClient } from '../redis/redis-connection';

/*
 * Request counts of fixed windows shared by every api process, without a Redis round trip
 * per request. Each process counts locally and adds what it counted to the window's Redis
 * counter in one batch every FLUSH_MS; a decision uses the shared count last read plus
 * what this process counted since. So a process sees the others' requests at most FLUSH_MS
 * (plus a round trip) late: a limit may be exceeded by what the other processes admitted
 * in that time. While Redis is unreachable, each process counts alone.
 */

/** How often each process adds its counts to the shared counters. */
export const FLUSH_MS = 25;

/** A window's count as this process knows it. */
interface Window {
  /** Count in Redis when last read (every process's requests, this one's sent included). */
  shared: number;
  /** Counted here, sent, not yet answered. */
  sending: number;
  /** Counted here, not yet sent. */
  unsent: number;
  /** When the window ends (ms since the epoch): first count + window, then Redis's TTL. */
  endsAt: number;
}

/** Adds `count` to the shared counter `key` (created with a TTL of `windowMs`). */
export type AddToSharedCount = (
  batch: { key: string; count: number }[],
  windowMs: number,
) => Promise<({ total: number; msLeft: number } | null)[]>;

export interface WindowCount {
  /** Requests in the window so far, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
}

export class SharedWindowCounter {
  private readonly windows = new Map<string, Window>();
  private flushing?: NodeJS.Timeout;

  constructor(
    private readonly windowMs: number,
    private readonly addToShared: AddToSharedCount,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one request under `key`. */
  count(key: string): WindowCount {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now >= window.endsAt) {
      window = { shared: 0, sending: 0, unsent: 0, endsAt: now + this.windowMs };
      this.windows.set(key, window);
    }
    window.unsent += 1;
    this.flushing ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
    return { count: window.shared + window.sending + window.unsent, msLeft: window.endsAt - now };
  }

  /** Sends the unsent counts (and forgets ended windows); resolves when answered. */
  async flush(): Promise<void> {
    clearTimeout(this.flushing);
    this.flushing = undefined;
    const now = this.now();
    const batch: { key: string; window: Window; count: number }[] = [];
    for (const [key, window] of this.windows) {
      if (now >= window.endsAt && window.sending === 0) this.windows.delete(key);
      else if (window.unsent > 0) {
        batch.push({ key, window, count: window.unsent });
        window.sending += window.unsent;
        window.unsent = 0;
      }
    }
    if (!batch.length) return;
    const answers = await this.addToShared(batch, this.windowMs).catch(() => batch.map(() => null));
    batch.forEach(({ window, count }, index) => {
      window.sending -= count;
      const answer = answers[index];
      if (!answer) {
        window.shared += count; // Redis unreachable: this process counts alone
        return;
      }
      // Answers come in the order sent; a total below the last means a new window.
      window.shared = answer.total;
      if (answer.msLeft > 0) window.endsAt = this.now() + answer.msLeft;
    });
  }
}

// Adds ARGV[1] to the counter KEYS[1]; a new window starts with its first count (its TTL,
// ARGV[2] ms; INCRBY keeps it). Answers the total and the milliseconds left.
const ADD = new RedisScript(
  `redis.call('SET', KEYS[1], 0, 'PX', ARGV[2], 'NX')
return {redis.call('INCRBY', KEYS[1], ARGV[1]), redis.call('PTTL', KEYS[1])}`,
  1,
);

/**
 * `AddToSharedCount` on a Redis connection: a script call per counter, all sent together
 * (one socket write with the connection's auto-pipelining; one per node of a cluster,
 * where counters of different clients live on different nodes).
 */
export function redisSharedCount(client: RedisClient): AddToSharedCount {
  return (batch, windowMs) =>
    Promise.all(
      batch.map(({ key, count }) =>
        ADD.run(client, key, count, windowMs).then(
          (answer) => {
            const [total, msLeft] = answer as [number, number];
            return { total: Number(total), msLeft: Number(msLeft) };
          },
          () => null,
        ),
      ),
    );
}
