import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, ConflictError, JobQueue } from '@app/shared';
import { acceptsStaging, hasEnded } from '../../domain/bulk-import';
import type { BulkImport } from '../../domain/bulk-import.schema';
import type { BulkImportStatusDto } from '../../dto/bulk-import.dto';
import { toBulkImportStatus } from '../../mapping/bulk-import.mapper';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportAccess } from '../../services/import-access.service';
import { StageLease } from '../../services/stage-lease.service';
import { RUN_BULK_IMPORT } from '../../worker/bulk.job-definitions';
import { ExecuteBulkImportCommand } from './execute-bulk-import.command';

/** How long Execute holds the stage lease (it only saves the import). */
const EXECUTE_LEASE_MS = 10_000;

/**
 * Marks the import Queued (under the stage lease, so no Stage adds records after it) and
 * queues its run in the bulk lane. The import is saved before the job is queued: an api
 * that dies in between leaves a Queued import without a job, which Execute called again
 * queues (Execute of a Queued or Processing import only queues its run again: the run
 * lease keeps one job at work, and the saved progress says where it goes on).
 */
@CommandHandler(ExecuteBulkImportCommand)
export class ExecuteBulkImportHandler implements ICommandHandler<ExecuteBulkImportCommand> {
  constructor(
    private readonly imports: BulkImportRepository,
    private readonly access: ImportAccess,
    private readonly stageLease: StageLease,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
  ) {}

  async execute(command: ExecuteBulkImportCommand): Promise<BulkImportStatusDto> {
    const { clientId, accessToken } = command;
    let job = await this.access.open(clientId, accessToken);
    if (hasEnded(job)) {
      throw new ConflictError(
        `AccessToken ${accessToken} is ${job.status}: an import is executed once; initiate a new one`,
      );
    }
    if (acceptsStaging(job)) {
      job = await this.stageLease.hold(
        clientId,
        accessToken,
        EXECUTE_LEASE_MS,
        `A Stage of AccessToken ${accessToken} is running; execute when it has answered`,
        () => this.queued(command),
      );
    }
    const chunk = (job.appliedChunks ?? 0) + 1;
    await this.queue.enqueue(RUN_BULK_IMPORT, { clientId, accessToken, chunk }, { lane: 'bulk' });
    return toBulkImportStatus(job);
  }

  /** Under the stage lease: the import Queued, unless another Execute came first. */
  private async queued(command: ExecuteBulkImportCommand): Promise<BulkImport> {
    const { clientId, accessToken, userId, scope } = command;
    const job = await this.access.open(clientId, accessToken);
    if (!acceptsStaging(job)) return job; // another Execute came first
    const queued: BulkImport = {
      ...job,
      status: 'Queued',
      executedBy: userId,
      ...(scope ? { executedScope: scope } : {}),
      executedAt: this.clock.now(),
      appliedChunks: 0,
      appliedInChunk: 0,
      processed: 0,
      notHonored: 0,
    };
    await this.imports.save(queued);
    return queued;
  }
}
