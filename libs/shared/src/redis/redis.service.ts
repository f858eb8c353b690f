import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import Redis from 'ioredis';
import { Settings } from '../settings/settings';

/** Every Redis command answers or fails within this time, so a stalled Redis is a 503. */
export const REDIS_COMMAND_TIMEOUT_MS = 2000;

/**
 * The process's own Redis connection for data that is not the queue's: read models,
 * key indexes, caches and counters. Keys are namespaced under QUEUE_PREFIX with `key()`.
 * What lives here is derived from the database and rebuilt from it when lost; Redis is
 * never the only record of anything.
 */
@Injectable()
export class RedisService implements OnModuleDestroy {
  readonly client: Redis;

  constructor(private readonly settings: Settings) {
    this.client = new Redis(settings.redisUrl, {
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      // Fail fast while disconnected instead of queueing commands without bound.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      lazyConnect: false,
      // The commands of concurrent requests issued in one turn of the event loop go out in
      // one socket write: a write syscall per command was a tenth of a GET's CPU (bench).
      enableAutoPipelining: true,
    });
    // Errors surface on the commands; an 'error' listener keeps ioredis from logging each.
    this.client.on('error', () => undefined);
  }

  /**
   * Whether the connection is up. Derived-data readers skip Redis while it is down and
   * read the database instead, rather than wait for each command to time out.
   */
  get available(): boolean {
    return this.client.status === 'ready';
  }

  /** `<QUEUE_PREFIX>:<parts joined by ':'>`. */
  key(...parts: (string | number)[]): string {
    // Concatenated, not an array joined: built on every GET (the read model's key).
    let key = this.settings.queuePrefix;
    for (const part of parts) key += `:${part}`;
    return key;
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
