import { Injectable } from '@nestjs/common';
import { LeaseService, RedisService } from '@app/shared';
import { DueTokens } from './due-tokens';

export type { DueToken as DueRemoval } from './due-tokens';

/**
 * When each import's stored data is due for removal (RemoveExpiredImports). An import is
 * scheduled at Initiate (its Expires) and again when its run ends (readableUntil); the job
 * reschedules what is not due yet.
 */
@Injectable()
export class ImportRemovals extends DueTokens {
  constructor(redis: RedisService, lease: LeaseService) {
    super(redis, lease, 'bulk-removals');
  }
}
