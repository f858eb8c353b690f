import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, CRASH_POINTS, CrashPoints, JobQueue, JobRunner, LeaseService } from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import {
  APPLY_BATCH,
  isRunning,
  matchValueOf,
  readableUntil,
  refreshedCollections,
} from '../../domain/bulk-import';
import {
  type BulkImport,
  encodeNewProfileIds,
  type StagedChunk,
  type StagedRecord,
  type StoredBulkException,
} from '../../domain/bulk-import.schema';
import { RunLeaseLostError } from '../../domain/run-lease-lost-error';
import { runLeaseName } from '../../keys';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportRemovals } from '../../services/import-removals.service';
import { RUN_BULK_IMPORT } from '../../worker/bulk.job-definitions';
import { ImportBatchAcceptor } from './import-batch-acceptor.service';
import { NewProfileBatches, type PreparedBatch } from './new-profile-batches.service';
import { RunBulkImportCommand } from './run-bulk-import.command';

/** What a run carries from one chunk to the next: the import as it saved it, the next read. */
interface CarriedRun {
  next: number;
  job: BulkImport;
  /** The next chunk's read, started while the chunk before was applied. */
  chunk?: Promise<StagedChunk | null>;
  /** The next chunk's first batch prepared ahead, its ids saved with the import. */
  ahead?: PreparedBatch;
}

/**
 * `read`, with its failure kept for whoever awaits it (no unhandled rejection when the run
 * stops before it needs the chunk).
 */
function settled<T>(read: Promise<T>): Promise<T> {
  read.catch(() => undefined);
  return read;
}

/**
 * The worker's use case of an executed import: under the import's run lease, accepts the
 * records of its next chunk as profile writes, those that may touch one profile in record
 * order and the others concurrently (ImportBatchAcceptor) (through
 * Profiles' ProfileImportWrites port: the same checks and intake as a POST by alternate
 * id, then applied by the ordinary apply jobs in each profile's write order). A record
 * the checks refuse against the stored profile becomes an exception (NotHonored). The
 * import's progress and counters are saved every APPLY_BATCH records; a worker that dies
 * leaves the records since the last save to be accepted again by the next run, and the
 * profiles apply each import record once (their import marks). After a chunk the job goes on
 * to the next one while its slice lasts (BULK_RUN_SLICE_MS), then queues itself for the
 * next; after the last, the import is Completed.
 */
@CommandHandler(RunBulkImportCommand)
export class RunBulkImportHandler implements ICommandHandler<RunBulkImportCommand> {
  private readonly logger = new Logger('RunBulkImport');

  constructor(
    private readonly imports: BulkImportRepository,
    private readonly acceptor: ImportBatchAcceptor,
    private readonly newProfiles: NewProfileBatches,
    private readonly lease: LeaseService,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly settings: BulkSettings,
    private readonly crashPoints: CrashPoints,
    private readonly removals: ImportRemovals,
    private readonly runner: JobRunner,
  ) {}

  async execute({ clientId, accessToken, chunk }: RunBulkImportCommand): Promise<void> {
    const job = await this.imports.find(clientId, accessToken);
    // Ended, or this chunk was done by another run (a job queued twice): nothing to do.
    if (!job || !isRunning(job) || (job.appliedChunks ?? 0) + 1 !== chunk) return;
    if (this.runner.stopping) {
      // This worker is stopping, yet a queue slot of it took the job (one already waiting
      // for a job gets it): the chunk goes back to the queue for another worker.
      await this.queue.enqueue(
        RUN_BULK_IMPORT,
        { clientId, accessToken, chunk },
        { lane: 'bulk', delayMs: 1000 },
      );
      return;
    }
    const name = runLeaseName(clientId, accessToken);
    const ttl = this.settings.runLeaseMs;
    const token = await this.lease.acquire(name, ttl);
    if (!token) {
      // Another run holds the import (it queues the next chunk itself). Back later: by
      // then its chunk is done (this job ends) or its holder died (its lease lapsed).
      await this.queue.enqueue(
        RUN_BULK_IMPORT,
        { clientId, accessToken, chunk },
        { lane: 'bulk', delayMs: Math.ceil(ttl / 2) },
      );
      return;
    }
    const next = await this.lease.whileHeld(name, token, ttl, async () => {
      // Chunk after chunk for BULK_RUN_SLICE_MS (or until the worker is stopping), then the
      // next job takes over.
      const until = Date.now() + this.settings.runSliceMs;
      try {
        // The import as this run last saved it, and the next chunk's read already under way.
        let carried: CarriedRun | null = null;
        for (let current = chunk; ;) {
          const step = await this.runChunk(
            { name, token },
            clientId,
            accessToken,
            current,
            carried,
            () => Date.now() < until && !this.runner.stopping,
          );
          if (step === null) return null;
          // Past the slice, the next chunk is still this run's when its ids were saved with
          // the import (prepared ahead): at most one chunk more.
          if (this.runner.stopping || (Date.now() >= until && !step.ahead)) return step.next;
          current = step.next;
          carried = step;
        }
      } catch (error) {
        if (!(error instanceof RunLeaseLostError)) throw error;
        this.logger.warn(error.message);
        return null;
      }
    });
    if (next !== null) {
      await this.queue.enqueue(
        RUN_BULK_IMPORT,
        { clientId, accessToken, chunk: next },
        { lane: 'bulk' },
      );
    }
  }

  /**
   * Applies the chunk; returns the next chunk to go on with (the import as saved, that
   * chunk's read started, and its first batch's new profiles built ahead), or null when the
   * import ended. `carried`: what the chunk before in this run returned (the import is then
   * not read again: this run saved it last, under its lease, which every save checks).
   * `continuing`: whether this run will go on to the next chunk (its slice lasts).
   *
   * While the chunk is applied, the next chunk's first batch is prepared: its records
   * grouped, ids reserved for its new profiles and these built (nothing stored but the
   * raised id hint). The chunk's last save then saves those ids too, as the next batch's
   * (`newProfiles`, with the instant they were built at), so the next chunk starts with its
   * inserts. A run that stops after that save leaves the next batch to be resumed like one
   * cut short by a crash (its profiles are built again at the saved instant); ids reserved
   * and never saved are gaps.
   */
  private async runChunk(
    hold: { name: string; token: string },
    clientId: string,
    accessToken: number,
    chunkNumber: number,
    carried: CarriedRun | null,
    continuing: () => boolean,
  ): Promise<CarriedRun | null> {
    // Read again under the lease: the progress of the run before is final.
    let job = carried ? carried.job : await this.imports.find(clientId, accessToken);
    if (!job || !isRunning(job) || (job.appliedChunks ?? 0) + 1 !== chunkNumber) return null;
    if (job.status === 'Queued') {
      job = { ...job, status: 'Processing' };
      await this.save(hold, job);
    }
    if (chunkNumber > job.chunks) {
      await this.end(hold, { ...job, status: 'Completed', endedAt: this.clock.now() });
      return null;
    }
    const chunk = await (carried?.chunk ??
      this.imports.findChunk(clientId, accessToken, chunkNumber));
    // The next chunk is read while this one is applied (the engine reads while this process
    // builds); a failed read is that chunk's, found when it is awaited.
    const following =
      chunkNumber < job.chunks
        ? settled(this.imports.findChunk(clientId, accessToken, chunkNumber + 1))
        : undefined;
    if (!chunk) {
      const failure = `Chunk ${chunkNumber} of the staged records is missing`;
      await this.end(hold, { ...job, status: 'Failed', endedAt: this.clock.now(), failure });
      return null;
    }
    // The next batch's ids are reserved after this chunk's own (ids follow record order).
    let reservedHere!: () => void;
    const ownIdsReserved = new Promise<void>((resolve) => (reservedHere = resolve));
    const preparing =
      following && job.operation !== 'Delete' && continuing()
        ? settled(this.newProfiles.prepareAhead(job, following, chunkNumber + 1, ownIdsReserved))
        : undefined;
    const replace = refreshedCollections(job.refresh);
    let done = job.appliedInChunk ?? 0;
    const tactic = { lookupFirst: false };
    let aheadOf: PreparedBatch | null = null;
    while (done < chunk.records.length) {
      const batch = chunk.records.slice(done, done + APPLY_BATCH);
      const current: BulkImport = job;
      const reasons = await this.acceptor.acceptBatch(
        (saved) => this.save(hold, saved),
        current,
        chunkNumber,
        batch,
        replace,
        tactic,
        { ahead: carried?.ahead, reserved: reservedHere },
      );
      reservedHere();
      const refused = batch.flatMap((record, i): StoredBulkException[] => {
        const reason = reasons[i];
        return reason === null ? [] : [exceptionOf(current, record, reason)];
      });
      await this.imports.appendExceptions(clientId, accessToken, job.exceptions, refused);
      done += batch.length;
      // The chunk's last batch saves the chunk done (one save, not the batch's then the
      // chunk's: a run resumed after either goes on at the next chunk).
      const ended = done >= chunk.records.length;
      // The next batch's ids go with the chunk's last save when this run goes on to it.
      const ahead = ended ? await preparing?.catch(() => null) : null;
      const next = ahead && continuing() ? ahead : null;
      if (next) aheadOf = next;
      job = {
        ...job,
        ...(ended ? { appliedChunks: chunkNumber, appliedInChunk: 0 } : { appliedInChunk: done }),
        ...(next
          ? {
              newProfiles: {
                chunk: next.chunk,
                at: next.at,
                ids: encodeNewProfileIds(next.ids),
                now: next.now.toISOString(),
              },
            }
          : {}),
        processed: (job.processed ?? 0) + batch.length - refused.length,
        notHonored: (job.notHonored ?? 0) + refused.length,
        exceptions: job.exceptions + refused.length,
      };
      await this.save(hold, job);
      if (ended) await this.crashPoints.at(CRASH_POINTS.bulkRunAfterChunk);
    }
    if ((job.appliedChunks ?? 0) !== chunkNumber) {
      // A chunk whose records were all done before (a run resumed after its last batch).
      job = { ...job, appliedChunks: chunkNumber, appliedInChunk: 0 };
      await this.save(hold, job);
    }
    return { next: chunkNumber + 1, job, chunk: following, ahead: aheadOf ?? undefined };
  }

  /** The import ended: its data is kept DataStageDuration days (readableUntil). */
  private async end(hold: { name: string; token: string }, job: BulkImport): Promise<void> {
    await this.save(hold, job);
    await this.removals.schedule(job.clientId, job.accessToken, readableUntil(job)!);
  }

  /** Saves the import by `_id`, only while this run holds its lease. */
  private async save(hold: { name: string; token: string }, job: BulkImport): Promise<void> {
    if (!(await this.lease.extend(hold.name, hold.token, this.settings.runLeaseMs))) {
      throw new RunLeaseLostError(`the run lease of ${job._id} was lost; another run goes on`);
    }
    await this.imports.save(job);
  }
}

function exceptionOf(job: BulkImport, record: StagedRecord, reason: string): StoredBulkException {
  return {
    n: record.n,
    stage: record.stage,
    index: record.index,
    alternateId: matchValueOf(record.body, job.matchValue),
    reason,
  };
}
