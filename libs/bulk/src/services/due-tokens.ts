import type { RedisService } from '@app/shared';
import { dueTokenKey } from '../keys';

/** A bulk import or export due for its next step. */
export interface DueToken {
  clientId: string;
  accessToken: number;
}

/**
 * When each import's or export's next step is due: a Redis sorted set (member
 * `<client>|<token>`, score the time), as the profile expiry index is, so a scheduled job
 * finds what is due without a filter on a collection. A Redis that lost its data forgets
 * the steps scheduled there.
 */
export abstract class DueTokens {
  protected constructor(
    private readonly redis: RedisService,
    private readonly name: string,
  ) {}

  async schedule(clientId: string, accessToken: number, at: Date): Promise<void> {
    await this.redis.client.zadd(this.key(), at.getTime(), dueTokenKey(clientId, accessToken));
  }

  async unschedule(clientId: string, accessToken: number): Promise<void> {
    await this.redis.client.zrem(this.key(), dueTokenKey(clientId, accessToken));
  }

  /** Up to `limit` tokens due at `now`, the earliest first. */
  async due(now: Date, limit: number): Promise<DueToken[]> {
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
    return this.redis.key(this.name);
  }
}
