import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { RedisService, ReusedStamps } from '@app/shared';

/**
 * A client's do-not-contact stamp: a random token in Redis (`<prefix>:dnc:stamp:<client>`)
 * replaced after every change of the client's lists or entries (list created, value listed
 * or removed). Readers that cache what the lists hold (DoNotContactLists.listingsOf) keep
 * their copy while the token is the same. A lost token is replaced by a new one (`NX`),
 * which only makes readers reload. Every change is announced (ReusedStamps), so the contact
 * decision reuses the stamp it read within READ_STAMP_REUSE_MS while none was announced.
 */
@Injectable()
export class DncStamps {
  constructor(
    private readonly redis: RedisService,
    private readonly reused: ReusedStamps,
  ) {}

  /**
   * The current token; null when Redis cannot answer (callers do not cache then). `reuse`: a
   * read path's, which may answer the token this process read while no change was announced.
   */
  current(clientId: string, reuse = false): Promise<string | null> {
    if (!reuse) return this.read(clientId);
    return this.reused.read(this.reusedName(clientId), () => this.read(clientId));
  }

  private async read(clientId: string): Promise<string | null> {
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
    this.reused.changedHere(this.reusedName(clientId));
    const multi = this.redis.client.multi().set(this.key(clientId), randomUUID());
    await this.reused
      .announce(multi, this.reusedName(clientId))
      .exec()
      .catch(() => undefined);
  }

  /** The stamp's name among the stamps read paths reuse. */
  private reusedName(clientId: string): string {
    return `dnc:${clientId}`;
  }

  private key(clientId: string): string {
    return this.redis.key('dnc', 'stamp', clientId);
  }
}
