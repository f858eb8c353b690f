import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { ImportAccess } from '../../services/import-access.service';
import { GetBulkImportQuery } from './get-bulk-import.query';

@QueryHandler(GetBulkImportQuery)
export class GetBulkImportHandler implements IQueryHandler<GetBulkImportQuery> {
  constructor(private readonly access: ImportAccess) {}

  async execute({ clientId, accessToken }: GetBulkImportQuery): Promise<BulkImportStatusDto> {
    return toBulkImportStatus(await this.access.open(clientId, accessToken, 'read'));
  }
}
