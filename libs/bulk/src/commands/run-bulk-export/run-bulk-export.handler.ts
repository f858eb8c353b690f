import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileExportReader } from '@app/profiles';
import { Clock, CRASH_POINTS, CrashPoints, JobQueue, LeaseService } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import {
  afterFailedRun,
  callbackWindowMs,
  changedSince,
  EXPORT_IDS_PER_RUN,
  EXPORT_READ_BATCH,
  isBuilding,
  matchKeyOf,
  rowBytes,
  rowsThatFit,
} from '../../domain/bulk-export';
import type { BulkExport } from '../../domain/bulk-export.schema';
import { RunLeaseLostError } from '../../domain/run-lease-lost-error';
import { exportRunLeaseName } from '../../keys';
import { BulkExportRepository } from '../../repositories/bulk-export.repository';
import { ExportExpiries } from '../../services/export-expiries.service';
import { NOTIFY_BULK_EXPORT, RUN_BULK_EXPORT } from '../../worker/bulk.job-definitions';
import { RunBulkExportCommand } from './run-bulk-export.command';

interface Hold {
  name: string;
  token: string;
}

/**
 * The worker's use case of an export: under the export's run lease, reads the client's
 * profiles by id from where the last run stopped (through Profiles' ProfileExportReader
 * port: each profile by `_id`), keeps those saved since LastDateTime that hold the
 * criterion's element, writes them as the next page (`<client>|e<token>|p<k>`, by `_id`)
 * and then saves the export's progress. One page per run; the job queues itself for the
 * next run, and after the last the export is Complete (and its callback queued). A worker
 * that dies between the page and the save leaves a page the next run writes again from the
 * same profile id. A run failing with an unexpected error makes the export Error (Bull
 * retries the job) and, EXPORT_MAX_FAILURES in a row, Failed.
 */
@CommandHandler(RunBulkExportCommand)
export class RunBulkExportHandler implements ICommandHandler<RunBulkExportCommand> {
  private readonly logger = new Logger('RunBulkExport');

  constructor(
    private readonly exports: BulkExportRepository,
    private readonly reader: ProfileExportReader,
    private readonly lease: LeaseService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly settings: BulkSettings,
    private readonly crashPoints: CrashPoints,
    private readonly expiries: ExportExpiries,
  ) {}

  async execute({ clientId, accessToken, run }: RunBulkExportCommand): Promise<void> {
    const job = await this.exports.find(clientId, accessToken);
    // Ended, or this run was done by another job (a job queued twice): nothing to do.
    if (!job || !isBuilding(job) || job.runs + 1 !== run) return;
    const name = exportRunLeaseName(clientId, accessToken);
    const ttl = this.settings.runLeaseMs;
    const token = await this.lease.acquire(name, ttl);
    if (!token) {
      // Another job holds the export; back later, when its run is done (this job then
      // ends) or its holder died (its lease lapsed).
      await this.queue.enqueue(
        RUN_BULK_EXPORT,
        { clientId, accessToken, run },
        { lane: 'bulk', delayMs: Math.ceil(ttl / 2) },
      );
      return;
    }
    const hold = { name, token };
    const next = await this.lease.whileHeld(name, token, ttl, async () => {
      try {
        return await this.buildPage(hold, clientId, accessToken, run);
      } catch (error) {
        if (error instanceof RunLeaseLostError) this.logger.warn(error.message);
        else if (await this.failed(hold, clientId, accessToken, error)) {
          throw error; // Error: Bull retries the job from the saved progress
        }
        return null;
      }
    });
    if (next !== null) {
      await this.queue.enqueue(
        RUN_BULK_EXPORT,
        { clientId, accessToken, run: next },
        { lane: 'bulk' },
      );
    }
  }

  /** Writes the next page; returns the next run to queue, or null when the export ended. */
  private async buildPage(
    hold: Hold,
    clientId: string,
    accessToken: number,
    run: number,
  ): Promise<number | null> {
    // Read again under the lease: the progress of the run before is final.
    const job = await this.exports.find(clientId, accessToken);
    if (!job || !isBuilding(job) || job.runs + 1 !== run) return null;
    const maxRows = this.settings.exportPageRows;
    const rows: string[] = [];
    let chars = 0;
    let bytes = 0;
    let cursor = job.nextProfileId;
    let done = false;
    while (!done && rows.length < maxRows && cursor - job.nextProfileId < EXPORT_IDS_PER_RUN) {
      const batch = await this.reader.read(clientId, cursor, EXPORT_READ_BATCH, job.scope);
      const candidates: { profileId: number; json: string }[] = [];
      for (const { profileId, savedAt, profile } of batch.profiles) {
        if (!changedSince(savedAt, job.lastDateTime)) continue;
        if (!job.matchCriteria) {
          candidates.push({ profileId, json: JSON.stringify(profile) });
          continue;
        }
        const key = matchKeyOf(profile, job.matchCriteria, job.matchType ?? undefined);
        if (key !== null) {
          candidates.push({ profileId, json: JSON.stringify({ MatchKey: key, ...profile }) });
        }
      }
      const taken = rowsThatFit(
        candidates.map(({ json }) => json),
        { rows: rows.length, chars },
        maxRows,
      );
      for (const { json } of candidates.slice(0, taken)) {
        rows.push(json);
        chars += json.length;
        bytes += rowBytes(json);
      }
      if (taken < candidates.length) {
        cursor = candidates[taken].profileId; // the page is full: the next run starts here
        break;
      }
      cursor = batch.next;
      done = batch.done;
    }
    const page = job.pageRows.length + 1;
    if (rows.length) {
      await this.exports.writePage(clientId, accessToken, page, rows);
      await this.crashPoints.at(CRASH_POINTS.bulkExportAfterPage);
    }
    const now = this.clock.now();
    const { failure: _cleared, ...rest } = job;
    const saved: BulkExport = {
      ...rest,
      status: 'Processing',
      runs: run,
      nextProfileId: cursor,
      pageRows: rows.length ? [...job.pageRows, rows.length] : job.pageRows,
      rowCount: job.rowCount + rows.length,
      byteCount: job.byteCount + bytes,
      progressAt: now,
      failures: 0,
    };
    if (!done) {
      await this.save(hold, saved);
      return run + 1;
    }
    await this.save(hold, this.ended({ ...saved, status: 'Complete' }, now));
    return null;
  }

  /**
   * Records a failed run: Error (true: the job is to be retried) or, after too many in a
   * row, Failed (false: the export ended).
   */
  private async failed(
    hold: Hold,
    clientId: string,
    accessToken: number,
    error: unknown,
  ): Promise<boolean> {
    const message = error instanceof Error ? error.message : String(error);
    try {
      const job = await this.exports.find(clientId, accessToken);
      if (!job || !isBuilding(job)) return false;
      const { status, failures } = afterFailedRun(job);
      const now = this.clock.now();
      const saved: BulkExport = { ...job, status, failures, failure: message, progressAt: now };
      this.logger.warn(
        `export ${job._id}: run failed (${failures} in a row, ${status}): ${message}`,
      );
      await this.save(hold, status === 'Failed' ? this.ended(saved, now) : saved);
      return status === 'Error';
    } catch {
      return true; // not even recorded (the engine is away): Bull retries the job
    }
  }

  /** An export that ended (Complete or Failed): its Expires starts, its callback is due. */
  private ended(job: BulkExport, now: Date): BulkExport {
    return {
      ...job,
      completedAt: now,
      expiresAt: new Date(now.getTime() + this.settings.exportTtlMs),
      callbackStatus: job.callbackUrl ? 'Pending' : null,
    };
  }

  /** Saves the export by `_id`, only while this run holds its lease; queues its callback once ended. */
  private async save(hold: Hold, job: BulkExport): Promise<void> {
    if (!(await this.lease.extend(hold.name, hold.token, this.settings.runLeaseMs))) {
      throw new RunLeaseLostError(
        `the run lease of export ${job._id} was lost; another run goes on`,
      );
    }
    await this.exports.save(job);
    if (job.completedAt) {
      // A pending callback: the sweep looks again once its attempts are over, and queues
      // them again if they were lost (callbackWindowMs).
      const checkAt =
        job.callbackStatus === 'Pending'
          ? new Date(
              job.completedAt.getTime() +
                callbackWindowMs(this.settings.exportCallbackTimeoutMs, this.settings.runLeaseMs),
            )
          : job.expiresAt;
      await this.expiries.schedule(job.clientId, job.accessToken, checkAt);
    }
    if (job.callbackStatus === 'Pending') {
      await this.crashPoints.at(CRASH_POINTS.bulkExportAfterEnd);
      await this.queue.enqueue(
        NOTIFY_BULK_EXPORT,
        { clientId: job.clientId, accessToken: job.accessToken, attempt: 1 },
        { lane: 'bulk' },
      );
    }
  }
}
