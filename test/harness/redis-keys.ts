import type { RedisService } from '@app/shared';

/** Keys a SCAN step looks at: the shared test Redis is never held by one long command. */
const SCAN_COUNT = 1000;

/**
 * Deletes the keys matching `pattern` (a glob), as a Redis that lost them would: a SCAN of
 * every node holding keys (each master of a cluster), then a DEL per key (a cluster's keys are
 * in different slots). Answers how many went. Not KEYS: late in a run the Redis the test files
 * share holds every file's keys, and one KEYS over them blocks the others' commands.
 */
export async function deleteRedisKeys(redis: RedisService, pattern: string): Promise<number> {
  const keys: string[] = [];
  for (const node of redis.masters()) {
    let cursor = '0';
    do {
      const [next, found] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      keys.push(...found);
      cursor = next;
    } while (cursor !== '0');
  }
  const deleted = await Promise.all(keys.map((key) => redis.client.del(key)));
  return deleted.reduce((sum, n) => sum + n, 0);
}
