import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { Settings } from '../settings/settings';
import { JOBS_QUEUE } from './queue.constants';

const EXTEND_SCRIPT =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("pexpire", KEYS[1], ARGV[2]) else return 0 end';
const RELEASE_SCRIPT =
  'if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end';

/**
 * Short exclusive leases in Redis (one writer per profile at a time). A lease that
 * outlives its holder expires by itself; holders renew theirs while they work (`extend`,
 * which also tells a holder that lost it). The embedded engine offers no conditional write
 * by `_id`, so a lease cannot fence a save: the profile worker renews right before each
 * save and stops when the renewal fails.
 */
@Injectable()
export class LeaseService {
  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    private readonly settings: Settings,
  ) {}

  async acquire(name: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    const ok = await this.queue.client.set(this.key(name), token, 'PX', ttlMs, 'NX');
    return ok === 'OK' ? token : null;
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
    return (await this.queue.client.eval(EXTEND_SCRIPT, 1, this.key(name), token, ttlMs)) === 1;
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
    return (await this.queue.client.eval(RELEASE_SCRIPT, 1, this.key(name), token)) === 1;
  }

  private key(name: string): string {
    return `${this.settings.queuePrefix}:lease:${name}`;
  }
}
