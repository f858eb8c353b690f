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

  /**
   * `run`, then Redis's `WAIT replicas timeoutMs` on the same connection (one pipeline: on
   * a cluster it goes to the node of the script's keys): answers the script's result and how
   * many replicas acknowledged it (and every earlier write of the connection) in time.
   */
  async runReplicated(
    client: RedisClient,
    replicas: number,
    timeoutMs: number,
    ...keysAndArgs: (string | number)[]
  ): Promise<{ result: unknown; acknowledged: number }> {
    const args = (
      this.numberOfKeys === null ? keysAndArgs : [this.numberOfKeys, ...keysAndArgs]
    ) as [number, ...(string | number)[]];
    const send = async (loaded: boolean) => {
      const pipeline = client.pipeline();
      if (loaded) pipeline.evalsha(this.sha, ...args);
      else pipeline.eval(this.lua, ...args);
      pipeline.wait(replicas, timeoutMs);
      return (await pipeline.exec()) ?? [];
    };
    let [[scriptError, result] = [null, null], [waitError, acknowledged] = [null, 0]] =
      await send(true);
    if (scriptError && String(scriptError.message).includes('NOSCRIPT'))
      [[scriptError, result] = [null, null], [waitError, acknowledged] = [null, 0]] =
        await send(false);
    if (scriptError) throw scriptError;
    if (waitError) throw waitError;
    return { result, acknowledged: Number(acknowledged) };
  }
}
