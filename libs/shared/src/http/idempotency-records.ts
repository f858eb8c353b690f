import type { RedisService } from '../redis/redis.service';

/** Keys read per SCAN step. */
const SCAN_COUNT = 500;

/** What `forgetIdempotentAnswers` is shown of one kept answer. */
export interface KeptAnswer {
  /** The answer's body, parsed (undefined when it had none or is not JSON). */
  body: unknown;
  /** Its kept `Location` header, if any. */
  location?: string;
}

/** `*`, `?`, `[`, `]` and `\` of a literal part of a SCAN pattern, escaped. */
function globLiteral(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/**
 * Deletes the answers the Idempotency-Key mechanism (IdempotencyGuard) keeps for one client
 * and that `matches` picks (an erased profile's: the answers name it). One SCAN over the
 * keys of the client's prefix (`<QUEUE_PREFIX>:idem:<clientId>:*`, the guard's layout), on
 * every master of a cluster: Redis walks its whole keyspace for it, so it is for rare operations (an erasure), never a
 * request's path. Answers still running are left (they hold no body yet). Returns how many
 * went.
 */
export async function forgetIdempotentAnswers(
  redis: RedisService,
  clientId: string,
  matches: (answer: KeptAnswer) => boolean,
): Promise<number> {
  const pattern = `${globLiteral(redis.key('idem', clientId))}:*`;
  let forgotten = 0;
  // SCAN walks one node's keys: every master of a cluster is walked.
  for (const node of redis.masters()) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', pattern, 'COUNT', SCAN_COUNT);
      cursor = next;
      if (keys.length) forgotten += await forgetSome(redis, keys, matches);
    } while (cursor !== '0');
  }
  return forgotten;
}

/** Of `keys` (answers kept), deletes those `matches` picks; how many went. */
async function forgetSome(
  redis: RedisService,
  keys: string[],
  matches: (answer: KeptAnswer) => boolean,
): Promise<number> {
  let forgotten = 0;
  // A GET each, sent together: on a cluster the keys are in different slots (no MGET).
  const values = await Promise.all(keys.map((key) => redis.client.get(key)));
  for (let i = 0; i < keys.length; i++) {
    const value = values[i];
    if (value === null) continue;
    let stored: { json?: string; headers?: { location?: string } };
    try {
      stored = JSON.parse(value) as typeof stored;
    } catch {
      continue;
    }
    let body: unknown;
    try {
      body = stored.json ? (JSON.parse(stored.json) as unknown) : undefined;
    } catch {
      body = undefined;
    }
    if (matches({ body, location: stored.headers?.location })) {
      forgotten += await redis.client.del(keys[i]);
    }
  }
  return forgotten;
}
