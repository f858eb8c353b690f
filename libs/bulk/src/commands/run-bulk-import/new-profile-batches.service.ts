import { Injectable } from '@nestjs/common';
import {
  type ImportedProfile,
  type ImportedProfilesCreation,
  type ImportRecordKeys,
  type PreparedImportedProfiles,
  ProfileImportWrites,
} from '@app/profiles';
import { Clock } from '@app/shared';
import { APPLY_BATCH, independentGroups, matchValueOf } from '../../domain/bulk-import';
import {
  type BulkImport,
  decodeNewProfileIds,
  encodeNewProfileIds,
  type NewProfileId,
  type StagedChunk,
  type StagedRecord,
} from '../../domain/bulk-import.schema';

/** A batch's new profiles prepared ahead: their ids, reserved, and their profiles built. */
export interface PreparedBatch {
  chunk: number;
  at: number;
  ids: NewProfileId[];
  now: Date;
  prepared: PreparedImportedProfiles;
}

/** What createNew made of a batch's firsts (record indexes in the batch). */
export interface NewProfilesOutcome {
  created: Set<number>;
  held: Set<number>;
  sentBack: Set<number>;
}

/**
 * The batch path of an import's new profiles (docs/bulk.md, Execute, step 2a): which
 * records of a batch may create a profile, the next chunk's first batch built ahead, and
 * the creation of a batch's new profiles under ids saved with the import first (reserved
 * now, built ahead, or saved by a run that a crash or the end of its slice cut short).
 */
@Injectable()
export class NewProfileBatches {
  constructor(
    private readonly writes: ProfileImportWrites,
    private readonly clock: Clock,
  ) {}

  /**
   * The batch's groups of records that may touch the same profile or claim, as far as the
   * records tell without reading anything (each record's alternate ids; the records left
   * over are looked up later), and the first of each group with a match value: the records
   * createNew tries. Pure: the same batch always gives the same firsts.
   */
  optimisticGroups(
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
  async prepareAhead(
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
   * finished, the others created as they were built), or ids reserved and saved now
   * (`save`: the import saved under the run's lease). Returns the records so created, those
   * whose pair was held, and every record sent back (held included).
   */
  async createNew(
    save: (job: BulkImport) => Promise<void>,
    job: BulkImport,
    chunk: number,
    batch: StagedRecord[],
    firsts: number[],
    ahead: PreparedBatch | undefined,
    /** Called once this batch's ids are reserved (or known). */
    reservedIds: () => void,
  ): Promise<NewProfilesOutcome> {
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
      await save({
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
}

/** The record's match pair: its alternate id of the import's MatchValue type, or null. */
export function pairOfRecord(job: BulkImport, record: StagedRecord) {
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
