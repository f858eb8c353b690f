import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { exportWindow } from '../../domain/bulk-export';
import type { BulkExportRowsDto, ExportedProfileDto } from '../../dto/bulk-export.dto';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { ExportAccess } from '../../services/export-access.service';
import { RetrieveBulkExportCommand } from './retrieve-bulk-export.command';

/** Reads only the pages that hold the asked rows, each by `_id` (no filtered query). */
@CommandHandler(RetrieveBulkExportCommand)
export class RetrieveBulkExportHandler implements ICommandHandler<RetrieveBulkExportCommand> {
  constructor(
    private readonly access: ExportAccess,
    private readonly exports: BulkExportRepository,
  ) {}

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
      window.slices.map(({ page }) => this.exports.pageRows(clientId, accessToken, page)),
    );
    const rows = window.slices.flatMap(({ page, from, to }, i) => {
      const stored = pages[i];
      // Counted pages are written before the count is saved: a missing one is lost data.
      if (!stored) throw new Error(`Page ${page} of export ${job._id} is missing`);
      return stored.slice(from, to).map((json) => JSON.parse(json) as ExportedProfileDto);
    });
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
