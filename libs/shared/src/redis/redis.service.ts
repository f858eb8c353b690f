import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type Redis from 'ioredis';
import { Settings } from '../settings/settings';
import {
  connectRedis,
  masterNodes,
  type RedisClient,
  type RedisConnectionOptions,
} from './redis-connection';
import { pinnedKey, sameSlotGroups, taggedKey } from './redis-keys';

/**
 * The process's own Redis connection for data that is not the queue's: read models,
 * key indexes, caches and counters (one Redis, or a cluster client with
 * REDIS_CLUSTER_NODES). Keys are namespaced under QUEUE_PREFIX with `key()`, `tagged()` or
 * `pinned()` (the key families and their hash tags: docs/scaling.md, "Redis").
 * What lives here is derived from the database and rebuilt from it when lost; Redis is
 * never the only record of anything.
 */
@Injectable()
export class RedisService implements OnModuleDestroy {
  readonly client: RedisClient;
  /** A Redis Cluster: keys a command or script takes together must share a slot. */
  readonly cluster: boolean;

  constructor(private readonly settings: Settings) {
    this.cluster = settings.redisClusterNodes.length > 0;
    this.client = connectRedis(settings, {
      // Every command answers or fails within this, so a stalled Redis is a 503.
      commandTimeout: settings.redisCommandTimeoutMs,
      // Fail fast while disconnected instead of queueing commands without bound.
      maxRetriesPerRequest: 1,
      enableOfflineQueue: true,
      lazyConnect: false,
      // The commands of concurrent requests issued in one turn of the event loop go out in
      // one socket write: a write syscall per command was a tenth of a GET's CPU (bench).
      // On a cluster, one write per node.
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

  /**
   * `<QUEUE_PREFIX>:<parts joined by ':'>`: a key used alone (no hash tag: the whole key
   * decides its slot).
   */
  key(...parts: (string | number)[]): string {
    // Concatenated, not an array joined: built on every request.
    let key = this.settings.queuePrefix;
    for (const part of parts) key += `:${part}`;
    return key;
  }

  /** `<QUEUE_PREFIX>:<family>:{<tag>}`: keys of a family with one tag share a slot. */
  tagged(family: string, tag: string): string {
    return taggedKey(this.settings.queuePrefix, family, tag);
  }

  /** `<QUEUE_PREFIX>:{<QUEUE_PREFIX>:<family>}`: the start of a family's keys, all in one slot. */
  pinned(family: string): string {
    return pinnedKey(this.settings.queuePrefix, family);
  }

  /**
   * `items` in groups a script may take together: all at once on one Redis, one group per
   * slot of their keys on a cluster.
   */
  sameSlotGroups<T>(items: T[], keyOf: (item: T) => string): T[][] {
    return sameSlotGroups(items, keyOf, !this.cluster);
  }

  /** Every node holding keys (the masters of a cluster): for SCAN and other per-node commands. */
  masters(): Redis[] {
    return masterNodes(this.client);
  }

  /** A new connection to the same Redis (a subscriber needs one of its own). */
  connect(options: RedisConnectionOptions): RedisClient {
    return connectRedis(this.settings, options);
  }

  async onModuleDestroy(): Promise<void> {
    this.client.disconnect();
  }
}
