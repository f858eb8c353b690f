import { Query } from '@nestjs/cqrs';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';

/** Status: an import's counters and status. */
export class GetBulkImportQuery extends Query<BulkImportStatusDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
  ) {
    super();
  }
}
