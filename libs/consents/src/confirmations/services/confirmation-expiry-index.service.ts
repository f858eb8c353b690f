import { Injectable } from '@nestjs/common';
import { RedisService, type TenantKey } from '@app/shared';
import type { StoredConfirmation } from '../domain/confirmation.schema';

/**
 * When each pending confirmation expires: a Redis sorted set (score: ExpiresDate in ms,
 * member: the confirmation's `_id`), so the confirmation-expiry job reads only the
 * confirmations due, by `_id`, and nothing when nothing is due (the same pattern as the
 * profiles' ExpiryIndex). Derived data: the apply extension adds a confirmation before inserting
 * it (a death in between leaves a member the job finds missing and drops), a closed one
 * leaves it; when the set is lost (its `built` marker is missing) the job rebuilds it from
 * the confirmations in one pass.
 */
@Injectable()
export class ConfirmationExpiryIndex {
  constructor(private readonly redis: RedisService) {}

  async add(confirmations: Pick<StoredConfirmation, '_id' | 'ExpiresDate'>[]): Promise<void> {
    const args = confirmations.flatMap((c) => [Date.parse(c.ExpiresDate), c._id]);
    if (args.length) await this.redis.client.zadd(this.key(), ...args);
  }

  async remove(id: TenantKey): Promise<void> {
    await this.redis.client.zrem(this.key(), id);
  }

  /** The confirmations due by `asOf`, soonest first (every client's: the job serves all). */
  async due(asOf: Date, limit: number): Promise<TenantKey[]> {
    const members = await this.redis.client.zrangebyscore(
      this.key(),
      '-inf',
      asOf.getTime(),
      'LIMIT',
      0,
      limit,
    );
    return members as TenantKey[];
  }

  async isBuilt(): Promise<boolean> {
    return (await this.redis.client.exists(this.key('built'))) === 1;
  }

  async markBuilt(): Promise<void> {
    await this.redis.client.set(this.key('built'), new Date().toISOString());
  }

  private key(...parts: string[]): string {
    return this.redis.key('confirmation-expiry', ...parts);
  }
}
