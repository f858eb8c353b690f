import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { exportWindow } from '../../domain/bulk-export';
import type { BulkExportRowsDto, ExportedProfileDto } from '../../dto/bulk-export.dto';
import { ExportAccess } from '../../services/export-access.service';
import { RetrieveBulkExportCommand } from './retrieve-bulk-export.command';

/** Reads only the pages that hold the asked rows, each by `_id` (no filtered query). */
@CommandHandler(RetrieveBulkExportCommand)
export class RetrieveBulkExportHandler implements ICommandHandler<RetrieveBulkExportCommand> {
  constructor(private readonly access: ExportAccess) {}

  async execute({
    clientId,
    accessToken,
    offset,
    limit,
    keepAlive,
  }: RetrieveBulkExportCommand): Promise<BulkExportRowsDto> {
    const job = await this.access.openRows(clientId, accessToken);
    const window = exportWindow(job.pageRows, offset, limit);
    const pages = await Promise.all(
      window.slices.map(({ page }) => this.access.pageRows(job, page)),
    );
    const rows = window.slices.flatMap(({ from, to }, i) =>
      pages[i].slice(from, to).map((json) => JSON.parse(json) as ExportedProfileDto),
    );
    await this.access.afterRead(job, !window.hasMore, keepAlive);
    return {
      Count: rows.length,
      HasMore: window.hasMore,
      Limit: limit,
      Offset: offset,
      TotalResults: job.rowCount,
      UserProfilePreferences: rows,
    };
  }
}
