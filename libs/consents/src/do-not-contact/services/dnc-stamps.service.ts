import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService } from '@app/shared';

/**
 * A client's do-not-contact stamp: a random token in Redis (`<prefix>:dnc:stamp:<client>`)
 * replaced after every change of the client's lists or entries (list created, value listed
 * or removed). Readers that cache what the lists hold (DoNotContactLists.listingsOf) keep
 * their copy while the token is the same. A lost token is replaced by a new one (`NX`),
 * which only makes readers reload.
 */
@Injectable()
export class DncStamps {
  constructor(private readonly redis: RedisService) {}

  /** The current token; null when Redis cannot answer (callers do not cache then). */
  async current(clientId: string): Promise<string | null> {
    if (!this.redis.available) return null;
    try {
      const stamp = await this.redis.client.get(this.key(clientId));
      if (stamp !== null) return stamp;
      const fresh = randomUUID();
      const set = await this.redis.client.set(this.key(clientId), fresh, 'NX');
      return set === 'OK' ? fresh : await this.redis.client.get(this.key(clientId));
    } catch {
      return null;
    }
  }

  /** After a change of the client's lists: cached copies are stale. Best effort. */
  async changed(clientId: string): Promise<void> {
    await this.redis.client.set(this.key(clientId), randomUUID()).catch(() => undefined);
  }

  private key(clientId: string): string {
    return this.redis.key('dnc', 'stamp', clientId);
  }
}
