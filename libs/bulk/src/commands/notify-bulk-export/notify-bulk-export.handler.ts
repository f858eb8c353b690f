import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobQueue } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import { CALLBACK_ATTEMPTS, callbackDelayMs } from '../../domain/bulk-export';
import { toAsyncExportStatus, toBulkExportStatus } from '../../mapping/bulk-export.mapper';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { NOTIFY_BULK_EXPORT } from '../../worker/bulk.job-definitions';
import { NotifyBulkExportCommand } from './notify-bulk-export.command';

/**
 * Sends `{AccessToken, Status, RowCount, ByteCount}` as JSON to the export's CallbackURL,
 * once it ended. An attempt that times out (BULK_EXPORT_CALLBACK_TIMEOUT_MS), cannot
 * connect or gets no 2xx answer is tried again later (a job queued with a delay), up to
 * CALLBACK_ATTEMPTS; then the callback is given up (CallbackStatus Failed, logged). The
 * export itself never fails for its callback. Redirects are not followed.
 */
@CommandHandler(NotifyBulkExportCommand)
export class NotifyBulkExportHandler implements ICommandHandler<NotifyBulkExportCommand> {
  private readonly logger = new Logger('BulkExportCallback');

  constructor(
    private readonly exports: BulkExportRepository,
    private readonly queue: JobQueue,
    private readonly settings: BulkSettings,
  ) {}

  async execute({ clientId, accessToken, attempt }: NotifyBulkExportCommand): Promise<void> {
    const job = await this.exports.find(clientId, accessToken);
    if (!job?.callbackUrl || job.callbackStatus !== 'Pending') return;
    const body = toAsyncExportStatus(toBulkExportStatus(job));
    let problem: string | null = null;
    try {
      const answer = await fetch(job.callbackUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        redirect: 'manual',
        signal: AbortSignal.timeout(this.settings.exportCallbackTimeoutMs),
      });
      await answer.body?.cancel().catch(() => undefined);
      if (answer.status < 200 || answer.status > 299) problem = `answered ${answer.status}`;
    } catch (error) {
      problem = error instanceof Error ? error.message : String(error);
    }
    if (problem === null) {
      await this.exports.update(job, { callbackStatus: 'Delivered' });
      return;
    }
    if (attempt < CALLBACK_ATTEMPTS) {
      this.logger.warn(
        `callback of export ${job._id} (attempt ${attempt} of ${CALLBACK_ATTEMPTS}) failed: ${problem}; trying again`,
      );
      await this.queue.enqueue(
        NOTIFY_BULK_EXPORT,
        { clientId, accessToken, attempt: attempt + 1 },
        { lane: 'bulk', delayMs: callbackDelayMs(attempt) },
      );
      return;
    }
    this.logger.warn(
      `callback of export ${job._id} failed ${CALLBACK_ATTEMPTS} times (${problem}); given up`,
    );
    await this.exports.update(job, { callbackStatus: 'Failed' });
  }
}
