import { Injectable } from '@nestjs/common';
import {
  type ImportCreateOptions,
  type ImportRecordKeys,
  ProfileImportWrites,
} from '@app/profiles';
import {
  ConflictError,
  CRASH_POINTS,
  CrashPoints,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
} from '@app/shared';
import { BulkSettings } from '../../bulk-settings';
import { independentGroups, matchValueOf } from '../../domain/bulk-import';
import type { BulkImport, StagedRecord } from '../../domain/bulk-import.schema';
import { NewProfileBatches, pairOfRecord, type PreparedBatch } from './new-profile-batches.service';

/** What the profile checks refuse a record for: an exception of the import, not a retry. */
const REFUSALS = [InvalidInputError, PermissionDeniedError, NotFoundError, ConflictError];

/**
 * Accepts the records of one batch of an import run as profile writes (through Profiles'
 * ProfileImportWrites port), new profiles by the batch path (NewProfileBatches), in an
 * order whose outcome is that of record order.
 */
@Injectable()
export class ImportBatchAcceptor {
  constructor(
    private readonly writes: ProfileImportWrites,
    private readonly newProfiles: NewProfileBatches,
    private readonly settings: BulkSettings,
    private readonly crashPoints: CrashPoints,
  ) {}

  /**
   * Accepts a batch's records. First the records that may create a profile (the first of
   * their group, with a match value) are created together, already applied (createNew).
   * The others, and those createNew sends back, are accepted as ordinary writes
   * BULK_APPLY_CONCURRENCY at a time: records that may touch the same profile or claim
   * (ProfileImportWrites.conflictKeys) one after the other in record order, the others
   * concurrently, so the outcome is that of record order. Returns each record's refusal
   * reason, or null. `save`: saves the import under the run's lease.
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
  async acceptBatch(
    save: (job: BulkImport) => Promise<void>,
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
      ({ plans, groups, firsts } = this.newProfiles.optimisticGroups(job, batch));
    }
    let created = new Set<number>();
    if (job.operation !== 'Delete') {
      const outcome = await this.newProfiles.createNew(
        save,
        job,
        chunk,
        batch,
        firsts,
        ahead,
        reserved,
      );
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
}
