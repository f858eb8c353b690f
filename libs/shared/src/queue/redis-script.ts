import { createHash } from 'node:crypto';
import type { RedisClient } from '../redis/redis-connection';

/**
 * A Lua script sent by its SHA1 (EVALSHA): the body goes out only when Redis does not know
 * it yet (NOSCRIPT: a fresh or restarted Redis), then that call is sent again as EVAL, which
 * loads it. Each call is one command, so it joins the commands issued in the same turn of
 * the event loop in one socket write (the connection's auto-pipelining); a script that must
 * run before another command is atomic on its own, so this retry never reorders one.
 * (ioredis's `defineCommand` does the same, but its retry breaks auto-pipelined batches.)
 * On a Redis Cluster the keys in KEYS must share a slot (the script runs on its node): the
 * callers' keys share a hash tag. A script that names keys in Lua (the fair queue's, Bull's)
 * may only reach keys of that slot: those families are pinned to one.
 */
export class RedisScript {
  private readonly sha: string;

  /** `numberOfKeys` null: each call passes its number of keys first (a variable count). */
  constructor(
    private readonly lua: string,
    private readonly numberOfKeys: number | null,
  ) {
    this.sha = createHash('sha1').update(lua).digest('hex');
  }

  async run(client: RedisClient, ...keysAndArgs: (string | number)[]): Promise<unknown> {
    const args = this.numberOfKeys === null ? keysAndArgs : [this.numberOfKeys, ...keysAndArgs];
    try {
      return await client.evalsha(this.sha, ...(args as [number, ...(string | number)[]]));
    } catch (error) {
      if (!String(error instanceof Error ? error.message : error).includes('NOSCRIPT')) {
        throw error;
      }
      return client.eval(this.lua, ...(args as [number, ...(string | number)[]]));
    }
  }
}
