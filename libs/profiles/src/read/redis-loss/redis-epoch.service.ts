import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisScript, RedisService } from '@app/shared';

// Answers the epoch Redis holds (KEYS[1]); when it holds none (it restarted empty, or failed
// over to a replica without it), stores ARGV[1] as the new one and answers it flagged as
// this caller's: {1, id}. Only one caller wins a new epoch (the script runs alone).
const EPOCH = new RedisScript(
  `
local cur = redis.call('GET', KEYS[1])
if cur then return {0, cur} end
redis.call('SET', KEYS[1], ARGV[1])
return {1, ARGV[1]}`,
  1,
);

/**
 * Tells a worker that Redis lost its data: a key (`<prefix>:epoch`) holding a random id,
 * written when it is missing. A Redis that restarted empty has none, and the first worker
 * to look writes a new one and is the one that recovers (RecoverLostRedis): the others
 * find the new id and do nothing. A Redis that lost only part of its data (a failover to a
 * replica that missed the last writes) keeps the key and is not noticed here: the sweeper's
 * STALE_WRITE_MS covers its lost jobs, and each worker's RepairRecentSaves the derived data of
 * the profiles it saved in those moments.
 */
@Injectable()
export class RedisEpoch {
  constructor(private readonly redis: RedisService) {}

  /** true when Redis held no epoch and this call wrote the new one. */
  async renewedHere(): Promise<boolean> {
    const [renewed] = (await EPOCH.run(
      this.redis.client,
      this.redis.key('epoch'),
      randomUUID(),
    )) as [number, string];
    return renewed === 1;
  }

  /** The epoch Redis holds now (null: none yet). */
  current(): Promise<string | null> {
    return this.redis.client.get(this.key());
  }

  /**
   * Sets `key` to `value` only while Redis still holds `epoch`: derived data rebuilt under
   * one epoch is not marked complete in a Redis that lost it meanwhile. true when set.
   * Checked before and after the SET, not in one script: on a Redis Cluster the epoch and
   * the marker are on different nodes. A loss between the two checks takes the marker away
   * again; only a worker dying in that same instant would leave it on an incomplete index.
   */
  async setWithin(epoch: string, key: string, value: string): Promise<boolean> {
    if ((await this.current()) !== epoch) return false;
    await this.redis.client.set(key, value);
    if ((await this.current()) === epoch) return true;
    await this.redis.client.del(key);
    return false;
  }

  private key(): string {
    return this.redis.key('epoch');
  }
}
