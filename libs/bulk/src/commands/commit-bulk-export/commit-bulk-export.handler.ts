import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, JobQueue } from '@app/shared';
import type { BulkExport } from '../../domain/bulk-export.schema';
import type { BulkExportStatusDto } from '../../dto/bulk-export.dto';
import { toBulkExportStatus } from '../../mapping/bulk-export.mapper';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { ExportAccess } from '../../services/export-access.service';
import { PURGE_BULK_EXPORT } from '../../worker/bulk.job-definitions';
import { CommitBulkExportCommand } from './commit-bulk-export.command';

/**
 * Marks a built export Retrieved and, unless keepFiles, lets its pages go: the decision is
 * saved first (reads refuse at once), then the purge job removes them page by page. A
 * Commit again answers the same (without keepFiles, it only removes what is left).
 */
@CommandHandler(CommitBulkExportCommand)
export class CommitBulkExportHandler implements ICommandHandler<CommitBulkExportCommand> {
  constructor(
    private readonly exports: BulkExportRepository,
    private readonly access: ExportAccess,
    private readonly queue: JobQueue,
  ) {}

  async execute({
    clientId,
    accessToken,
    keepFiles,
  }: CommitBulkExportCommand): Promise<BulkExportStatusDto> {
    const job = await this.access.open(clientId, accessToken, 'read');
    if (job.status !== 'Complete' && job.status !== 'Retrieved') {
      throw new ConflictError(
        `AccessToken ${accessToken} is ${job.status}: an export is committed once it is Complete`,
      );
    }
    const fields: Partial<BulkExport> = {
      status: 'Retrieved',
      ...(keepFiles ? {} : { pagesRemoved: true }),
    };
    await this.exports.update(job, fields);
    if (!keepFiles) {
      await this.queue.enqueue(PURGE_BULK_EXPORT, { clientId, accessToken }, { lane: 'bulk' });
    }
    return toBulkExportStatus({ ...job, ...fields });
  }
}
