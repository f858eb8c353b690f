import type { BullRootModuleOptions } from '@nestjs/bull';
import { Injectable, Module } from '@nestjs/common';
import type { Queue } from 'bull';
import { connectRedis, type RedisClient } from '../redis/redis-connection';
import { pinnedKey } from '../redis/redis-keys';
import { Settings } from '../settings/settings';

/**
 * Bull's options, and on a Redis Cluster the connections Bull runs on. Bull's scripts
 * touch every key of a queue together and name some inside Lua, so the queue's keys share
 * one hash tag: the prefix `<QUEUE_PREFIX>:{<QUEUE_PREFIX>:bull}` (a hash-tagged prefix is
 * Bull's documented way on a cluster), on one Redis too. Bull closes only the connections it made itself, so the ones made
 * here for a cluster are closed when its queues have closed (`closeWith`).
 */
@Injectable()
export class BullConnections {
  private readonly made: RedisClient[] = [];

  constructor(private readonly settings: Settings) {}

  options(): BullRootModuleOptions {
    const settings = this.settings;
    const common = {
      prefix: pinnedKey(settings.queuePrefix, 'bull'),
      settings: { stalledInterval: settings.stalledJobCheckMs },
    };
    // One Redis: Bull's own connections, from the URL.
    if (!settings.redisClusterNodes.length) return { redis: settings.redisUrl, ...common };
    return {
      ...common,
      createClient: (type) => {
        // Bull refuses a ready check or a retry limit on its blocking and subscriber
        // connections; its own connections have no ready check either.
        const client = connectRedis(settings, {
          enableReadyCheck: false,
          ...(type === 'client' ? {} : { maxRetriesPerRequest: null }),
        });
        client.on('error', () => undefined);
        this.made.push(client);
        return client;
      },
    };
  }

  /** Closes the connections made for `queues` once Bull has closed every one of them. */
  closeWith(queues: readonly Queue[]): true {
    let open = queues.length;
    for (const queue of queues) {
      queue.once('close', () => {
        if (--open > 0) return;
        for (const client of this.made.splice(0)) client.disconnect();
      });
    }
    return true;
  }
}

/** BullConnections, one per application (the queue's options and the queue's closer share it). */
@Module({ providers: [BullConnections], exports: [BullConnections] })
export class BullConnectionsModule {}
