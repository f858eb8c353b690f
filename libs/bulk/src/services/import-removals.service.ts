import { Injectable } from '@nestjs/common';
import { RedisService } from '@app/shared';
import { importKey } from '../keys';

/** A due removal: the import it concerns. */
export interface DueRemoval {
  clientId: string;
  accessToken: number;
}

/**
 * When each import's stored data is due for removal: a Redis sorted set (member
 * `<client>|<token>`, score the time), as the profile expiry index is, so the cleanup job
 * finds what is due without a filter on the imports collection. An import is scheduled at
 * Initiate (its Expires) and again when its run ends (readableUntil); the job reschedules
 * what is not due yet. A Redis that lost its data forgets the removals scheduled there.
 */
@Injectable()
export class ImportRemovals {
  constructor(private readonly redis: RedisService) {}

  async schedule(clientId: string, accessToken: number, at: Date): Promise<void> {
    await this.redis.client.zadd(this.key(), at.getTime(), importKey(clientId, accessToken));
  }

  async unschedule(clientId: string, accessToken: number): Promise<void> {
    await this.redis.client.zrem(this.key(), importKey(clientId, accessToken));
  }

  /** Up to `limit` removals due at `now`, the earliest first. */
  async due(now: Date, limit: number): Promise<DueRemoval[]> {
    const members = await this.redis.client.zrangebyscore(
      this.key(),
      '-inf',
      now.getTime(),
      'LIMIT',
      0,
      limit,
    );
    return members.map((m) => {
      // Client ids never hold '|' (libs/auth identifiers): the last part is the token.
      const at = m.lastIndexOf('|');
      return { clientId: m.slice(0, at), accessToken: Number(m.slice(at + 1)) };
    });
  }

  private key(): string {
    return this.redis.key('bulk-removals');
  }
}
