import { Injectable } from '@nestjs/common';
import { RedisService } from '@app/shared';
import type { ProfileWrite } from '../../domain/profile-write.schema';

/** How long a write's start count is kept (far longer than any retry schedule). */
const STARTS_TTL_SECONDS = 24 * 3600;

/**
 * Counts how often the worker started applying each write, in Redis, before the work: an
 * attempt that hangs (and so never raises the error that countFailure counts) is still
 * counted, so a write that keeps stalling the worker is given up after MAX_WRITE_ATTEMPTS
 * starts instead of stalling it after every restart. A lost count (Redis lost its data)
 * only starts the count again.
 */
@Injectable()
export class WriteStarts {
  constructor(private readonly redis: RedisService) {}

  /** Records one more start of the write; answers how many there were (0: unknown). */
  async started(write: ProfileWrite): Promise<number> {
    if (!this.redis.available) return 0;
    const key = this.redis.key('wstart', write._id);
    try {
      const [[, count]] = (await this.redis.client
        .multi()
        .incr(key)
        .expire(key, STARTS_TTL_SECONDS)
        .exec()) as [[Error | null, number], unknown];
      return Number(count);
    } catch {
      return 0;
    }
  }
}
