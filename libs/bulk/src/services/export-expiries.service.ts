import { Injectable } from '@nestjs/common';
import { Clock, LeaseService, RedisService } from '@app/shared';
import { BulkExportRepository } from '../repositories/bulk-export.repository';
import { DueTokens } from './due-tokens';

/**
 * When each export is next looked at by the expiry sweep (SweepExpiredExports): scheduled
 * at Initiate (a check-up after the build's lease) and whenever its Expires is set (its
 * end, a retrieval with keepAlive), so an export nobody touches again still expires and
 * its pages go.
 */
@Injectable()
export class ExportExpiries extends DueTokens {
  constructor(
    redis: RedisService,
    lease: LeaseService,
    clock: Clock,
    exports: BulkExportRepository,
  ) {
    super(redis, lease, clock, 'bulk-export-expiry', (batchSize) =>
      exports.crossTenantScanForScheduleRebuild(batchSize),
    );
  }
}
