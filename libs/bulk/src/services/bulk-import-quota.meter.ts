import { Injectable, type OnModuleInit } from '@nestjs/common';
import { Clock, type QuotaMeter, QuotaMeters } from '@app/shared';
import { BulkSettings } from '../bulk-settings';
import { importsWithinDay } from '../domain/bulk-import';
import { BulkImportRepository } from '../repositories/bulk-import.repository';

/**
 * The bulk imports per day quota for the operator's view: BULK_IMPORT_DAILY_LIMIT, and the
 * client's Initiates of the last 24 hours from its token hint (`bulk_import_hints`, by `_id`).
 */
@Injectable()
export class BulkImportQuotaMeter implements QuotaMeter, OnModuleInit {
  readonly name = 'bulkImportsPerDay';
  readonly defaultLimit: number;

  constructor(
    private readonly imports: BulkImportRepository,
    private readonly clock: Clock,
    private readonly meters: QuotaMeters,
    settings: BulkSettings,
  ) {
    this.defaultLimit = settings.dailyImportLimit;
  }

  onModuleInit(): void {
    this.meters.register(this);
  }

  async used(clientId: string): Promise<number> {
    const hint = await this.imports.hint(clientId);
    return importsWithinDay(hint?.initiated ?? [], this.clock.now()).length;
  }
}
