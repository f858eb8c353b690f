import { Injectable } from '@nestjs/common';
import { Clock, LeaseService, RedisService } from '@app/shared';
import { BulkImportRepository } from '../repositories/bulk-import.repository';
import { DueTokens } from './due-tokens';

export type { DueToken as DueRemoval } from './due-tokens';

/**
 * When each import's stored data is due for removal (RemoveExpiredImports). An import is
 * scheduled at Initiate (its Expires) and again when its run ends (readableUntil); the job
 * reschedules what is not due yet.
 */
@Injectable()
export class ImportRemovals extends DueTokens {
  constructor(
    redis: RedisService,
    lease: LeaseService,
    clock: Clock,
    imports: BulkImportRepository,
  ) {
    super(redis, lease, clock, 'bulk-removals', (batchSize) =>
      imports.crossTenantScanForScheduleRebuild(batchSize),
    );
  }
}
