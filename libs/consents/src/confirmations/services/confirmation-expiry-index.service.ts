import { Injectable } from '@nestjs/common';
import { DueSet, RedisService, type TenantKey } from '@app/shared';
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
export class ConfirmationExpiryIndex extends DueSet {
  constructor(redis: RedisService) {
    super(redis, 'confirmation-expiry');
  }

  async add(confirmations: Pick<StoredConfirmation, '_id' | 'ExpiresDate'>[]): Promise<void> {
    await this.addDue(confirmations.map((c) => [Date.parse(c.ExpiresDate), c._id]));
  }

  /** The confirmations due by `asOf`, soonest first (every client's: the job serves all). */
  async due(asOf: Date, limit: number): Promise<TenantKey[]> {
    return (await this.dueMembers(asOf, 0, limit)) as TenantKey[];
  }
}
