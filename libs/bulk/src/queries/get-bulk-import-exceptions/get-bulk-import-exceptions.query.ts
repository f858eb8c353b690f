import { Query } from '@nestjs/cqrs';
import type { BulkImportExceptionsDto } from '../../dto/bulk-import.dto';

/** Exceptions: records `offset` (from 1) to `offset + limit - 1` of an import's exceptions. */
export class GetBulkImportExceptionsQuery extends Query<BulkImportExceptionsDto> {
  constructor(
    readonly clientId: string,
    readonly accessToken: number,
    readonly offset: number,
    readonly limit: number,
  ) {
    super();
  }
}
