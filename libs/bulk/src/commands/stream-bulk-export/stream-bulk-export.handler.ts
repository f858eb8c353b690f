import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { BulkExport } from '../../domain/bulk-export.schema';
import { ExportAccess } from '../../services/export-access.service';
import { StreamBulkExportCommand } from './stream-bulk-export.command';

/**
 * Refuses as a retrieval does (404, 401, 409) before anything is sent; then yields one
 * page's rows at a time (each page read by `_id` when the stream is ready for it), one
 * JSON line per profile. Read to the end, it counts as a retrieval that reached the end.
 */
@CommandHandler(StreamBulkExportCommand)
export class StreamBulkExportHandler implements ICommandHandler<StreamBulkExportCommand> {
  constructor(private readonly access: ExportAccess) {}

  async execute({
    clientId,
    accessToken,
    keepAlive,
  }: StreamBulkExportCommand): Promise<AsyncIterable<string>> {
    const job = await this.access.openRows(clientId, accessToken);
    return this.lines(job, keepAlive);
  }

  private async *lines(job: BulkExport, keepAlive: boolean): AsyncIterable<string> {
    for (let page = 1; page <= job.pageRows.length; page++) {
      const rows = await this.access.pageRows(job, page);
      yield rows.map((json) => `${json}\n`).join('');
    }
    await this.access.afterRead(job, true, keepAlive);
  }
}
