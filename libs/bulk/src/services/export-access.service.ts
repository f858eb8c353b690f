import { Injectable } from '@nestjs/common';
import { AccessExpiredError, Clock, ConflictError, JobQueue, NotFoundError } from '@app/shared';
import { BulkSettings } from '../bulk-settings';
import { isBuilding, isDueToExpire, isReadable } from '../domain/bulk-export';
import type { BulkExport } from '../domain/bulk-export.schema';
import { BulkExportRepository } from '../repositories/bulk-export.repository';
import { ExportExpiries } from './export-expiries.service';
import { PURGE_BULK_EXPORT, RUN_BULK_EXPORT } from '../worker/bulk.job-definitions';

/**
 * An export as a request reaches it: by its client's key (another client's token is not
 * found, as an unknown one: 404). Touching it also does what is due, so no scheduled job
 * is needed: an ended export past Expires becomes Expired and its pages are purged; a
 * building export without progress for a run lease is queued again (a run lost with Redis,
 * or with a worker that died); a purge that did not end is queued again.
 */
@Injectable()
export class ExportAccess {
  constructor(
    private readonly exports: BulkExportRepository,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly settings: BulkSettings,
    private readonly expiries: ExportExpiries,
  ) {}

  /** The export; `read` (rows, stream, commit) refuses an Expired one with 401. */
  async open(
    clientId: string,
    accessToken: number,
    purpose: 'status' | 'read' = 'status',
  ): Promise<BulkExport> {
    let job = await this.exports.find(clientId, accessToken);
    if (!job) throw new NotFoundError(`No bulk export has AccessToken ${accessToken}`);
    const now = this.clock.now();
    const payload = { clientId, accessToken };
    if (isDueToExpire(job, now)) {
      job = { ...job, status: 'Expired', pagesRemoved: true };
      await this.exports.update(job, { status: 'Expired', pagesRemoved: true });
      await this.queue.enqueue(PURGE_BULK_EXPORT, payload, { lane: 'bulk' });
    } else if (job.pagesRemoved && !job.purgedAt) {
      await this.queue.enqueue(PURGE_BULK_EXPORT, payload, { lane: 'bulk' });
    }
    if (isBuilding(job) && now.getTime() - job.progressAt.getTime() >= this.settings.runLeaseMs) {
      await this.queue.enqueue(
        RUN_BULK_EXPORT,
        { ...payload, run: job.runs + 1 },
        { lane: 'bulk' },
      );
    }
    if (purpose === 'read' && job.status === 'Expired') {
      throw new AccessExpiredError(
        `AccessToken ${accessToken} expired at ${job.expiresAt.toISOString()}; initiate a new export`,
      );
    }
    return job;
  }

  /** The export, when its rows can be read (409 while it is built, after it failed or its pages went). */
  async openRows(clientId: string, accessToken: number): Promise<BulkExport> {
    const job = await this.open(clientId, accessToken, 'read');
    if (isReadable(job)) return job;
    throw new ConflictError(
      job.pagesRemoved
        ? `AccessToken ${accessToken} was committed without keepFiles: its rows are removed`
        : `AccessToken ${accessToken} is ${job.status}: rows are readable once it is Complete`,
    );
  }

  /**
   * The rows of page `page` (from 1) of a readable export. Counted pages are written before
   * the count is saved: a missing one is lost data.
   */
  async pageRows(job: BulkExport, page: number): Promise<string[]> {
    const rows = await this.exports.pageRows(job.clientId, job.accessToken, page);
    if (!rows) throw new Error(`Page ${page} of export ${job._id} is missing`);
    return rows;
  }

  /**
   * After a retrieval: keepAlive=true starts Expires again (the export stays as it is);
   * otherwise a retrieval that reached the end (no rows after it) marks a Complete export
   * Retrieved. Fields are set, not the document replaced (a callback's outcome may be
   * saved meanwhile).
   */
  async afterRead(job: BulkExport, reachedEnd: boolean, keepAlive: boolean): Promise<void> {
    if (keepAlive) {
      const expiresAt = new Date(this.clock.now().getTime() + this.settings.exportTtlMs);
      await this.exports.update(job, { expiresAt });
      await this.expiries.schedule(job.clientId, job.accessToken, expiresAt);
    } else if (reachedEnd && job.status === 'Complete') {
      await this.exports.update(job, { status: 'Retrieved' });
    }
  }
}
