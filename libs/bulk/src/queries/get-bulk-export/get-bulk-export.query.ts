import { Query } from '@nestjs/cqrs';
import type { BulkExportStatusDto } from '../../dto/bulk-export.dto';

/** Status: an export's status and counters. */
export class GetBulkExportQuery extends Query<BulkExportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
  ) {
    super();
  }
}
