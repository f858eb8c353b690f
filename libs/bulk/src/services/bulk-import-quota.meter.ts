import { Injectable } from '@nestjs/common';
import { Clock, QuotaMeters } from '@app/shared';
import { RegisteredQuotaMeter } from '@app/shared/quotas/registered-quota-meter';
import { BulkSettings } from '../bulk-settings';
import { importsWithinDay } from '../domain/bulk-import';
import { BulkImportRepository } from '../repositories/bulk-import.repository';

/**
 * The bulk imports per day quota for the operator's view: BULK_IMPORT_DAILY_LIMIT, and the
 * client's Initiates of the last 24 hours from its token hint (`bulk_import_hints`, by `_id`).
 */
@Injectable()
export class BulkImportQuotaMeter extends RegisteredQuotaMeter {
  readonly name = 'bulkImportsPerDay';

  constructor(
    private readonly imports: BulkImportRepository,
    private readonly clock: Clock,
    meters: QuotaMeters,
    settings: BulkSettings,
  ) {
    super(meters, settings.dailyImportLimit);
  }

  async used(clientId: string): Promise<number> {
    const hint = await this.imports.hint(clientId);
    return importsWithinDay(hint?.initiated ?? [], this.clock.now()).length;
  }
}
