import type { RedisService } from '@app/shared';

/**
 * Deletes the keys matching `pattern` (a KEYS glob), as a Redis that lost them would: KEYS
 * on every node holding keys (each master of a cluster), then a DEL per key (a cluster's
 * keys are in different slots). Answers how many went.
 */
export async function deleteRedisKeys(redis: RedisService, pattern: string): Promise<number> {
  const keys = (await Promise.all(redis.masters().map((node) => node.keys(pattern)))).flat();
  const deleted = await Promise.all(keys.map((key) => redis.client.del(key)));
  return deleted.reduce((sum, n) => sum + n, 0);
}
