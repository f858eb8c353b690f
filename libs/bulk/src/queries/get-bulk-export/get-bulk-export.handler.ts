import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { BulkExportStatusDto } from '../../dto/bulk-export.dto';
import { toBulkExportStatus } from '../../mapping/bulk-export.mapper';
import { ExportAccess } from '../../services/export-access.service';
import { GetBulkExportQuery } from './get-bulk-export.query';

/** The export by `_id` (an Expired one too: its Status says so). */
@QueryHandler(GetBulkExportQuery)
export class GetBulkExportHandler implements IQueryHandler<GetBulkExportQuery> {
  constructor(private readonly access: ExportAccess) {}

  async execute({ clientId, accessToken }: GetBulkExportQuery): Promise<BulkExportStatusDto> {
    return toBulkExportStatus(await this.access.open(clientId, accessToken));
  }
}
