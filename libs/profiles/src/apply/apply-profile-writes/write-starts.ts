import { Injectable } from '@nestjs/common';
import { RedisScript, RedisService } from '@app/shared';
import type { ProfileWrite } from '../../domain/profile-write.schema';
import { writeStartsKey } from '../../keys';

/** How long a write's start count is kept (far longer than any retry schedule). */
const STARTS_TTL_SECONDS = 24 * 3600;

// One more start of each key (ARGV[1]: their TTL in seconds); answers the counts in order.
// One command instead of MULTI, INCR and EXPIRE per write, and EXEC.
const STARTED = new RedisScript(
  `
local counts = {}
for i, key in ipairs(KEYS) do
  counts[i] = redis.call('INCR', key)
  redis.call('EXPIRE', key, ARGV[1])
end
return counts`,
  null,
);

/**
 * Counts how often the worker started applying each write, in Redis, before the work: an
 * attempt that hangs (and so never raises the error that countFailure counts) is still
 * counted, so a write that keeps stalling the worker is given up after MAX_WRITE_ATTEMPTS
 * starts instead of stalling it after every restart. A lost count (Redis lost its data)
 * only starts the count again. The writes of one pass are counted together (one round
 * trip; they are one profile's, so their keys share its slot); see LoadStage for how a pass
 * that did not finish is split up again.
 */
@Injectable()
export class WriteStarts {
  constructor(private readonly redis: RedisService) {}

  /** Records one more start of the write; answers how many there were (0: unknown). */
  async started(write: ProfileWrite): Promise<number> {
    return (await this.startedAll([write]))[0];
  }

  /** One more start of each write, in one round trip; per write how many (0: unknown). */
  async startedAll(writes: ProfileWrite[]): Promise<number[]> {
    if (!this.redis.available || !writes.length) return writes.map(() => 0);
    const keys = writes.map((write) => writeStartsKey(this.redis, write));
    try {
      const counts = (await STARTED.run(
        this.redis.client,
        keys.length,
        ...keys,
        STARTS_TTL_SECONDS,
      )) as number[];
      return writes.map((_, k) => Number(counts[k] ?? 0) || 0);
    } catch {
      return writes.map(() => 0);
    }
  }

  /** Takes back the start of writes counted but left out of the pass (not started after all). */
  async notStarted(writes: ProfileWrite[]): Promise<void> {
    if (!this.redis.available || !writes.length) return;
    const multi = this.redis.client.multi();
    for (const write of writes) multi.decr(writeStartsKey(this.redis, write));
    await multi.exec().catch(() => undefined);
  }
}
