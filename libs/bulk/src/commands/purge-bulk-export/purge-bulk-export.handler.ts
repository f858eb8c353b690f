import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock } from '@app/shared';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { PurgeBulkExportCommand } from './purge-bulk-export.command';

/**
 * Deletes the pages of an export whose pages were let go (Commit without keepFiles, or
 * expiry), each by `_id`: pages 1 to the count, then on past it until one is missing (a
 * run that died may have left one beyond the count). Safe to run again; the next touch
 * of the export queues it again until `purgedAt` is set.
 */
@CommandHandler(PurgeBulkExportCommand)
export class PurgeBulkExportHandler implements ICommandHandler<PurgeBulkExportCommand> {
  constructor(
    private readonly exports: BulkExportRepository,
    private readonly clock: Clock,
  ) {}

  async execute({ clientId, accessToken }: PurgeBulkExportCommand): Promise<void> {
    const job = await this.exports.find(clientId, accessToken);
    if (!job?.pagesRemoved || job.purgedAt) return;
    for (let page = 1; ; page++) {
      const removed = await this.exports.deletePage(clientId, accessToken, page);
      if (!removed && page > job.pageRows.length) break;
    }
    await this.exports.update(job, { purgedAt: this.clock.now() });
  }
}
