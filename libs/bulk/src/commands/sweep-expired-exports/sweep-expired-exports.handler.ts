import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobQueue, type JobCounts } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import { callbackWindowMs, isBuilding } from '../../domain/bulk-export';
import { NOTIFY_BULK_EXPORT } from '../../worker/bulk.job-definitions';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { ExportAccess } from '../../services/export-access.service';
import type { DueToken } from '../../services/due-tokens';
import { ExportExpiries } from '../../services/export-expiries.service';
import { SweepExpiredExportsCommand } from './sweep-expired-exports.command';

/**
 * Touches the exports whose time came (ExportExpiries), as a request would (ExportAccess):
 * an ended export past Expires becomes Expired and its pages are purged, a build without
 * progress or a purge that did not end is queued again. So an export nobody reads again
 * still leaves no pages behind. Each export stays scheduled until its record is removed: at
 * its Expires, a run lease later while it is built or purged, then
 * BULK_EXPORT_RECORD_TTL_MS after its purge, when the record itself goes.
 */
@CommandHandler(SweepExpiredExportsCommand)
export class SweepExpiredExportsHandler implements ICommandHandler<SweepExpiredExportsCommand> {
  constructor(
    private readonly exports: BulkExportRepository,
    private readonly access: ExportAccess,
    private readonly expiries: ExportExpiries,
    private readonly settings: BulkSettings,
    private readonly queue: JobQueue,
  ) {}

  async execute({ maxPages }: SweepExpiredExportsCommand): Promise<JobCounts> {
    const counts = { expired: 0, removed: 0, checked: 0, rescheduled: 0, callbacks: 0 };
    counts.rescheduled = await this.expiries.sweep(maxPages, (token, now) =>
      this.touchDue(token, now, counts),
    );
    return counts;
  }

  private async touchDue(
    { clientId, accessToken }: DueToken,
    now: Date,
    counts: { expired: number; removed: number; checked: number; callbacks: number },
  ): Promise<void> {
    counts.checked++;
    const before = await this.exports.find(clientId, accessToken);
    if (!before) {
      await this.expiries.unschedule(clientId, accessToken);
      return;
    }
    if (before.purgedAt) {
      // Purged: the record is kept BULK_EXPORT_RECORD_TTL_MS (its token answers 401),
      // then removed (404).
      const removeAt = new Date(before.purgedAt.getTime() + this.settings.exportRecordTtlMs);
      if (removeAt > now) {
        await this.expiries.schedule(clientId, accessToken, removeAt);
        return;
      }
      await this.exports.remove(clientId, accessToken);
      await this.expiries.unschedule(clientId, accessToken);
      counts.removed++;
      return;
    }
    const job = await this.access.open(clientId, accessToken);
    if (job.status === 'Expired' && before.status !== 'Expired') counts.expired++;
    const later = new Date(now.getTime() + this.settings.runLeaseMs);
    let next = job.pagesRemoved || isBuilding(job) ? later : job.expiresAt;
    if (job.callbackStatus === 'Pending' && job.completedAt) {
      const window = callbackWindowMs(
        this.settings.exportCallbackTimeoutMs,
        this.settings.runLeaseMs,
      );
      if (now.getTime() >= job.completedAt.getTime() + window) {
        // Its attempts are long over and it is still Pending: the chain was lost.
        await this.queue.enqueue(
          NOTIFY_BULK_EXPORT,
          { clientId, accessToken, attempt: 1 },
          { lane: 'bulk' },
        );
        counts.callbacks++;
      }
      next = new Date(Math.min(next.getTime(), now.getTime() + window));
    }
    await this.expiries.schedule(clientId, accessToken, next);
  }
}
