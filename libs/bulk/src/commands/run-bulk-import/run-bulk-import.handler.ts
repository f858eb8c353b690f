import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import {
  type ImportCreateOptions,
  type ImportedProfile,
  type ImportedProfilesCreation,
  type ImportRecordKeys,
  type PreparedImportedProfiles,
  ProfileImportWrites,
} from '@app/profiles';
import {
  Clock,
  ConflictError,
  CRASH_POINTS,
  CrashPoints,
  InvalidInputError,
  JobQueue,
  JobRunner,
  LeaseService,
  NotFoundError,
  PermissionDeniedError,
} from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import {
  APPLY_BATCH,
  independentGroups,
  isRunning,
  matchValueOf,
  readableUntil,
  refreshedCollections,
} from '../../domain/bulk-import';
import {
  type BulkImport,
  decodeNewProfileIds,
  encodeNewProfileIds,
  type NewProfileId,
  type StagedChunk,
  type StagedRecord,
  type StoredBulkException,
} from '../../domain/bulk-import.schema';
import { runLeaseName } from '../../keys';
import { BulkImportRepository } from '../../repositories/bulk-import.repository';
import { ImportRemovals } from '../../services/import-removals.service';
import { RUN_BULK_IMPORT } from '../../worker/bulk-jobs';
import { RunBulkImportCommand } from './run-bulk-import.command';

/** What the profile checks refuse a record for: an exception of the import, not a retry. */
const REFUSALS = [InvalidInputError, PermissionDeniedError, NotFoundError, ConflictError];

/** A batch's new profiles prepared ahead: their ids, reserved, and their profiles built. */
interface PreparedBatch {
  chunk: number;
  at: number;
  ids: NewProfileId[];
  now: Date;
  prepared: PreparedImportedProfiles;
}

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

/** Thrown when this job no longer holds the import's run lease: it stops, another goes on. */
class RunLeaseLostError extends Error {}

/**
 * The worker's use case of an executed import: under the import's run lease, accepts the
 * records of its next chunk as profile writes, those that may touch one profile in record
 * order and the others concurrently (acceptBatch) (through
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
    private readonly writes: ProfileImportWrites,
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
        ? settled(this.prepareAhead(job, following, chunkNumber + 1, ownIdsReserved))
        : undefined;
    const replace = refreshedCollections(job.refresh);
    let done = job.appliedInChunk ?? 0;
    const tactic = { lookupFirst: false };
    let aheadOf: PreparedBatch | null = null;
    while (done < chunk.records.length) {
      const batch = chunk.records.slice(done, done + APPLY_BATCH);
      const current: BulkImport = job;
      const reasons = await this.acceptBatch(hold, current, chunkNumber, batch, replace, tactic, {
        ahead: carried?.ahead,
        reserved: reservedHere,
      });
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

  /**
   * Accepts a batch's records. First the records that may create a profile (the first of
   * their group, with a match value) are created together, already applied (createNew).
   * The others, and those createNew sends back, are accepted as ordinary writes
   * BULK_APPLY_CONCURRENCY at a time: records that may touch the same profile or claim
   * (ProfileImportWrites.conflictKeys) one after the other in record order, the others
   * concurrently, so the outcome is that of record order. Returns each record's refusal
   * reason, or null.
   *
   * How the creators are found depends on `tactic`: with `lookupFirst` the holder of each
   * record's pair is read first (one claim read per record) and only unheld firsts go to
   * createNew; without it (the default) the records are grouped by the alternate ids they
   * name and every first goes to createNew, whose claim of the pair tells which are held,
   * and only the records left over are looked up and grouped again. A batch where most
   * firsts turn out held (an import of updates) sets `lookupFirst` for the next one, and
   * one where most are new clears it.
   *
   * Grouping the leftovers apart is the outcome of record order: a record created here is
   * the first of the records naming any of its alternate ids, and its pair had no holder,
   * so no earlier record touches what it touches.
   */
  private async acceptBatch(
    hold: { name: string; token: string },
    job: BulkImport,
    chunk: number,
    batch: StagedRecord[],
    replace: string[],
    tactic: { lookupFirst: boolean },
    { ahead, reserved }: { ahead?: PreparedBatch; reserved: () => void },
  ): Promise<(string | null)[]> {
    const pairOf = (record: StagedRecord) => pairOfRecord(job, record);
    const lookUp = (i: number): Promise<ImportRecordKeys> | ImportRecordKeys => {
      const pair = pairOf(batch[i]);
      return pair
        ? this.writes.conflictKeys(job.clientId, pair, batch[i].body)
        : { keys: [], held: false };
    };
    const looked = tactic.lookupFirst || job.operation === 'Delete';
    let plans: (ImportRecordKeys | null)[];
    let groups: number[][];
    let firsts: number[];
    if (looked) {
      plans = await Promise.all(batch.map((_, i) => lookUp(i)));
      groups = independentGroups(plans.map((plan) => plan!.keys));
      firsts = groups
        .map((group) => group[0])
        .filter((i) => pairOf(batch[i]) !== null && !plans[i]!.held);
    } else {
      ({ plans, groups, firsts } = this.optimisticGroups(job, batch));
    }
    let created = new Set<number>();
    if (job.operation !== 'Delete') {
      const outcome = await this.createNew(hold, job, chunk, batch, firsts, ahead, reserved);
      created = outcome.created;
      const held = looked
        ? batch.filter((record, i) => pairOf(record) !== null && plans[i]?.held).length
        : outcome.held.size;
      const candidates = looked
        ? batch.filter((record) => pairOf(record) !== null).length
        : firsts.length;
      if (candidates > 0) tactic.lookupFirst = held * 2 > candidates;
      // The records left: look up those not looked up yet (and those createNew sent back:
      // a pair may have been taken meanwhile), then group them again.
      const left = batch.map((_, i) => i).filter((i) => !created.has(i));
      if (!looked || outcome.sentBack.size) {
        const fresh = await Promise.all(
          left.map((i) => (!looked || outcome.sentBack.has(i) ? lookUp(i) : plans[i]!)),
        );
        plans = [...plans];
        left.forEach((i, k) => (plans[i] = fresh[k]));
      }
      groups = independentGroups(left.map((i) => plans[i]!.keys)).map((group) =>
        group.map((k) => left[k]),
      );
    }
    const reasons: (string | null)[] = batch.map(() => null);
    const runGroups = async () => {
      for (let group = groups.shift(); group; group = groups.shift()) {
        for (const i of group) {
          // Only a group's first record knows its pair's holder: an earlier one may create it.
          const knownUnheld = i === group[0] && !plans[i]!.held;
          reasons[i] = await this.apply(job, batch[i], replace, { knownUnheld });
          await this.crashPoints.at(CRASH_POINTS.bulkRunAfterRecord);
        }
      }
    };
    await Promise.all(Array.from({ length: this.settings.applyConcurrency }, runGroups));
    return reasons;
  }

  /**
   * The batch's groups of records that may touch the same profile or claim, as far as the
   * records tell without reading anything (each record's alternate ids; the records left
   * over are looked up later), and the first of each group with a match value: the records
   * createNew tries. Pure: the same batch always gives the same firsts.
   */
  private optimisticGroups(
    job: BulkImport,
    batch: StagedRecord[],
  ): { plans: (ImportRecordKeys | null)[]; groups: number[][]; firsts: number[] } {
    const plans = batch.map((record) =>
      pairOfRecord(job, record) ? null : { keys: [], held: false },
    );
    const groups = independentGroups(
      batch.map(
        (record, i) =>
          plans[i]?.keys ?? this.writes.alternateIdKeys(pairOfRecord(job, record)!, record.body),
      ),
    );
    const firsts = groups.map((group) => group[0]).filter((i) => plans[i] === null);
    return { plans, groups, firsts };
  }

  /**
   * The next chunk's first batch prepared while this chunk is applied: its firsts (as
   * acceptBatch will find them), ids reserved for them, and their profiles built at one
   * instant. Null when it creates nothing.
   */
  private async prepareAhead(
    job: BulkImport,
    chunkRead: Promise<StagedChunk | null>,
    chunkNumber: number,
    after: Promise<void>,
  ): Promise<PreparedBatch | null> {
    const chunk = await chunkRead;
    if (!chunk) return null;
    const batch = chunk.records.slice(0, APPLY_BATCH);
    const { firsts } = this.optimisticGroups(job, batch);
    if (!firsts.length) return null;
    await after;
    const reserved = await this.writes.reserveNewProfileIds(job.clientId, firsts.length);
    const ids = firsts.map((index, k) => ({ index, profileId: reserved[k] }));
    const now = this.clock.now();
    const prepared = await this.writes.prepareNew(
      importerOf(job),
      importedProfiles(job, batch, ids),
      now,
    );
    return { chunk: chunkNumber, at: 0, ids, now, prepared };
  }

  /**
   * Creates the new profiles of the records `firsts` names at once, under ids reserved and
   * saved first: the batch built ahead when the chunk before saved its ids (`ahead`), or a
   * batch a crash or the end of a run cut short (its saved ids: the profiles it saved are
   * finished, the others created as they were built), or ids reserved and saved now.
   * Returns the records so created, those whose pair was held, and every record sent back
   * (held included).
   */
  private async createNew(
    hold: { name: string; token: string },
    job: BulkImport,
    chunk: number,
    batch: StagedRecord[],
    firsts: number[],
    ahead: PreparedBatch | undefined,
    /** Called once this batch's ids are reserved (or known). */
    reservedIds: () => void,
  ): Promise<{ created: Set<number>; held: Set<number>; sentBack: Set<number> }> {
    const at = job.appliedInChunk ?? 0;
    const saved = job.newProfiles;
    const savedHere = saved?.chunk === chunk && saved.at === at;
    let ids = savedHere ? decodeNewProfileIds(saved.ids) : [];
    let creation: ImportedProfilesCreation;
    if (
      ahead &&
      savedHere &&
      ahead.chunk === chunk &&
      ahead.at === at &&
      sameIds(ahead.ids, ids) &&
      sameIds(
        ahead.ids,
        firsts.map((index) => ({ index, profileId: 0 })),
        false,
      )
    ) {
      creation = { now: ahead.now, prepared: ahead.prepared };
    } else if (savedHere) {
      creation = { resumed: true, ...(saved.now ? { now: new Date(saved.now) } : {}) };
    } else {
      if (!firsts.length) return { created: new Set(), held: new Set(), sentBack: new Set() };
      const reserved = await this.writes.reserveNewProfileIds(job.clientId, firsts.length);
      ids = firsts.map((index, k) => ({ index, profileId: reserved[k] }));
      const now = this.clock.now();
      reservedIds();
      await this.save(hold, {
        ...job,
        newProfiles: { chunk, at, ids: encodeNewProfileIds(ids), now: now.toISOString() },
      });
      creation = { now };
    }
    reservedIds();
    const outcomes = await this.writes.createNew(
      importerOf(job),
      importedProfiles(job, batch, ids),
      creation,
    );
    const indexesWhere = (wanted: (outcome: string) => boolean) =>
      new Set(ids.filter((_, k) => wanted(outcomes[k])).map(({ index }) => index));
    return {
      created: indexesWhere((outcome) => outcome === 'created'),
      held: indexesWhere((outcome) => outcome === 'held'),
      sentBack: indexesWhere((outcome) => outcome !== 'created'),
    };
  }

  /** Accepts one record as a profile write; the reason when the checks refuse it. */
  private async apply(
    job: BulkImport,
    record: StagedRecord,
    replace: string[],
    creates: ImportCreateOptions,
  ): Promise<string | null> {
    const alternateId = matchValueOf(record.body, job.matchValue);
    if (alternateId === null)
      return `AlternateIds holds no active AlternateId of type "${job.matchValue}"`;
    try {
      await this.writes.write(
        {
          clientId: job.clientId,
          userId: job.executedBy ?? job.createdBy,
          scope: job.executedScope,
          pair: { AlternateIdType: job.matchValue, AlternateId: alternateId },
          body: record.body,
          operation: job.operation === 'Delete' ? 'delete' : 'add',
          replace,
          flags: { allowPriorConsents: job.allowPriorConsents },
          record: { accessToken: job.accessToken, n: record.n },
        },
        creates,
      );
      return null;
    } catch (error) {
      if (REFUSALS.some((type) => error instanceof type)) return (error as Error).message;
      throw error; // the engine or Redis: the job is retried from the saved progress
    }
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

/** The record's match pair: its alternate id of the import's MatchValue type, or null. */
function pairOfRecord(job: BulkImport, record: StagedRecord) {
  const alternateId = matchValueOf(record.body, job.matchValue);
  return alternateId === null
    ? null
    : { AlternateIdType: job.matchValue, AlternateId: alternateId };
}

/** Who writes an import's records: the user who executed it, within their scope. */
function importerOf(job: BulkImport) {
  return {
    clientId: job.clientId,
    userId: job.executedBy ?? job.createdBy,
    scope: job.executedScope,
  };
}

/** The records `ids` names, as new profiles under their ids. */
function importedProfiles(
  job: BulkImport,
  batch: StagedRecord[],
  ids: NewProfileId[],
): ImportedProfile[] {
  return ids.map(({ index: i, profileId }) => ({
    profileId,
    pair: pairOfRecord(job, batch[i])!,
    body: batch[i].body,
    record: { accessToken: job.accessToken, n: batch[i].n },
  }));
}

/** Whether two id lists name the same records (and, with `withIds`, the same ids). */
function sameIds(a: NewProfileId[], b: NewProfileId[], withIds = true): boolean {
  return (
    a.length === b.length &&
    a.every(
      ({ index, profileId }, k) =>
        index === b[k].index && (!withIds || profileId === b[k].profileId),
    )
  );
}
