import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { EXCEPTION_PAGE_SIZE, exceptionWindow } from '../../domain/bulk-import';
import type { BulkImportExceptionsDto } from '../../dto/bulk-import.dto';
import { toBulkImportException } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportAccess } from '../../services/import-access.service';
import { GetBulkImportExceptionsQuery } from './get-bulk-import-exceptions.query';

/** Reads the pages that hold the asked records, each by `_id` (no filtered query). */
@QueryHandler(GetBulkImportExceptionsQuery)
export class GetBulkImportExceptionsHandler implements IQueryHandler<GetBulkImportExceptionsQuery> {
  constructor(
    private readonly access: ImportAccess,
    private readonly imports: BulkImportRepository,
  ) {}

  async execute({
    clientId,
    accessToken,
    offset,
    limit,
  }: GetBulkImportExceptionsQuery): Promise<BulkImportExceptionsDto> {
    const job = await this.access.open(clientId, accessToken, 'read');
    const window = exceptionWindow(job.exceptions, offset, limit);
    const pages = await Promise.all(
      window.pages.map((page) => this.imports.exceptionPage(clientId, accessToken, page)),
    );
    const records = pages
      .flatMap((records, i) =>
        records.map((record, k) => ({
          record,
          n: (window.pages[i] - 1) * EXCEPTION_PAGE_SIZE + k + 1,
        })),
      )
      .filter(({ n }) => n >= window.first && n <= window.last)
      .map(({ record }) => toBulkImportException(record));
    return {
      Count: records.length,
      HasMore: window.hasMore,
      Limit: limit,
      Offset: offset,
      TotalResults: job.exceptions,
      Exceptions: records,
    };
  }
}
