import { isDuplicateKeyError, NotFoundError, type TenantKey, TenantScopedModel } from '@app/shared';
import type { Model } from 'mongoose';
import type { NamedEntryStore } from './config-bookkeeping.repository';
import type { EntryRevisions } from './save-with-retry';

/**
 * What every stored revision of a configuration entry carries. `_id` is
 * `<clientId>|<kind>|<entryId>|<revision>` (revisionKey): a save never changes a stored
 * document, it inserts the entry's next revision, and the insert of that `_id` decides between
 * two concurrent writers (the loser gets error 11000, re-reads and redoes its change). That is
 * the only compare-and-set both engines make atomic: FerretDB v1.24 evaluates the filter of a
 * replaceOne/updateOne apart from its write, so a revision filter lets two writers through.
 * Revisions are never deleted (a deleted one could be inserted again by a writer that read an
 * older one); superseded ones are marked `current: false`, and reads take the highest revision
 * of each entry. They are the entry's history.
 */
export interface Revisioned {
  _id: TenantKey;
  clientId: string;
  /** +1 per save (the first revision is 1, or 0 for programs and program groups). */
  revision: number;
  /** False once a later revision is stored (set after that insert; reads still take the highest). */
  current: boolean;
}

/** A revision whose name is unique per client; `nameKey` is the name as compared (textKey). */
export interface NamedRevision extends Revisioned {
  nameKey: string;
}

/** Keeps the highest revision of each entry, in the order entries first appear. */
export function latestRevisions<T extends { revision: number }>(
  revisions: T[],
  entryId: (revision: T) => number,
): T[] {
  const latest = new Map<number, T>();
  for (const revision of revisions) {
    const known = latest.get(entryId(revision));
    if (!known || revision.revision > known.revision) latest.set(entryId(revision), revision);
  }
  return [...latest.values()];
}

/**
 * Reads and writes the entry revisions of one collection; `idField` names the entry id field
 * and `partition` narrows every query (the types area keeps six kinds in one collection).
 * Every method is scoped by client id. Indexes the collection needs: `{clientId, <id>,
 * revision: -1}` and, for list and name look-ups, `{clientId, current, <id>}` and
 * `{clientId, nameKey, current}` (each behind the partition's fields).
 */
export class RevisionStore<T extends Revisioned> {
  private readonly model: TenantScopedModel<T>;

  constructor(
    model: Model<T>,
    private readonly idField: keyof T & string,
    private readonly partition: Record<string, unknown> = {},
  ) {
    this.model = new TenantScopedModel(model);
  }

  private idOf = (entry: T): number => entry[this.idField] as unknown as number;

  /** The latest revision of the entry, or null. */
  async findOne(clientId: string, entryId: number): Promise<T | null> {
    const [latest] = await this.model
      .find({ clientId, ...this.partition, [this.idField]: entryId })
      .sort({ revision: -1 })
      .limit(1)
      .lean<T[]>()
      .exec();
    return latest ?? null;
  }

  /** The latest revision of every entry of the client, in id order. */
  async list(clientId: string): Promise<T[]> {
    const revisions = await this.model
      .find({ clientId, ...this.partition, current: true })
      .sort({ [this.idField]: 1, revision: -1 })
      .lean<T[]>()
      .exec();
    return latestRevisions(revisions, this.idOf);
  }

  /**
   * What a list route asks for: the entry `entryId` (404 `<what> <entryId> was not found` when
   * it is not stored) or, without an id (0 or absent), every entry of the client in id order.
   */
  async listOrOne(clientId: string, entryId: number | undefined, what: string): Promise<T[]> {
    if (!entryId) return this.list(clientId);
    const entry = await this.findOne(clientId, entryId);
    if (!entry) throw new NotFoundError(`${what} ${entryId} was not found`);
    return [entry];
  }

  /**
   * The latest revision of every entry of the client, in id order, by the value of `field`
   * (a partition's field, the types' `kind`): one query where a store per value would make
   * one each (a configuration reload reads every kind).
   */
  async listByPartition<K extends keyof T & string>(
    clientId: string,
    field: K,
  ): Promise<Map<T[K], T[]>> {
    const revisions = await this.model
      .find({ clientId, ...this.partition, current: true })
      .sort({ [this.idField]: 1, revision: -1 })
      .lean<T[]>()
      .exec();
    const byValue = new Map<T[K], T[]>();
    for (const revision of revisions) {
      const same = byValue.get(revision[field]);
      if (same) same.push(revision);
      else byValue.set(revision[field], [revision]);
    }
    for (const [value, same] of byValue) byValue.set(value, latestRevisions(same, this.idOf));
    return byValue;
  }

  /**
   * The latest revisions of the entries having a current revision that matches `filter`. A
   * revision just superseded may match while the latest does not: callers re-check.
   */
  async findLatestWhere(clientId: string, filter: Record<string, unknown>): Promise<T[]> {
    const candidates = await this.model
      .find({ clientId, ...this.partition, ...filter, current: true }, { [this.idField]: 1 })
      .lean<T[]>()
      .exec();
    if (!candidates.length) return [];
    const ids = [...new Set(candidates.map(this.idOf))];
    const revisions = await this.model
      .find({ clientId, ...this.partition, current: true, [this.idField]: { $in: ids } })
      .sort({ [this.idField]: 1, revision: -1 })
      .lean<T[]>()
      .exec();
    return latestRevisions(revisions, this.idOf);
  }

  /** The entries whose latest revision has one of these normalised names. */
  async findByNameKeys(
    this: RevisionStore<T & NamedRevision>,
    clientId: string,
    nameKeys: string[],
  ): Promise<T[]> {
    const found = await this.findLatestWhere(clientId, { nameKey: { $in: nameKeys } });
    return found.filter((entry) => nameKeys.includes(entry.nameKey));
  }

  /** The entry whose latest revision has this normalised name, or null. */
  async findByNameKey(
    this: RevisionStore<T & NamedRevision>,
    clientId: string,
    nameKey: string,
  ): Promise<T | null> {
    const [found] = await this.findByNameKeys(clientId, [nameKey]);
    return found ?? null;
  }

  /** Stores the first revisions of new entries; their ids are claimed, so none can exist. */
  async insertAll(entries: T[]): Promise<void> {
    if (entries.length) await this.model.insertMany(entries);
  }

  /**
   * Stores `entry` (its `_id` and `revision` set by the caller) and marks the older revisions
   * superseded; false when that revision exists already (another writer saved first).
   */
  async saveRevision(entry: T): Promise<boolean> {
    try {
      await this.model.create(entry);
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
    await this.model.updateMany(
      {
        clientId: entry.clientId,
        ...this.partition,
        [this.idField]: this.idOf(entry),
        revision: { $lt: entry.revision },
        current: true,
      },
      { $set: { current: false } },
    );
    return true;
  }

  /**
   * Removes the entries of a create that failed half-way, before it was answered: the only
   * deletion of revisions (their ids stay claimed, so no later entry gets them).
   */
  async removeUnanswered(clientId: string, entryIds: number[]): Promise<void> {
    if (!entryIds.length) return;
    await this.model.deleteMany({
      clientId,
      ...this.partition,
      [this.idField]: { $in: entryIds },
    });
  }
}

/**
 * A RevisionStore of entries whose name (`nameOf`) is unique per client: what
 * claimUniqueNames reads of them. An entry holds only its current name unless a subclass
 * says otherwise (consent types keep their former names).
 */
export class NamedRevisionStore<T extends NamedRevision>
  extends RevisionStore<T>
  implements NamedEntryStore
{
  constructor(
    model: Model<T>,
    idField: keyof T & string,
    readonly kind: string,
    readonly label: string,
    private readonly nameOf: (entry: T) => string,
  ) {
    super(model, idField);
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.findByNameKeys(clientId, nameKeys)).map(this.nameOf);
  }

  async namesHeldBy(clientId: string, entryId: number): Promise<string | string[] | null> {
    const entry = await this.findOne(clientId, entryId);
    return entry && this.nameOf(entry);
  }

  /** What saveWithRetry reads and saves of entry `entryId` (404 when unknown). */
  revisionsOf(clientId: string, entryId: number): EntryRevisions<T> {
    return {
      what: `${this.label} ${entryId}`,
      notFound: `${this.label} ${entryId} was not found`,
      load: () => this.findOne(clientId, entryId),
      save: (next) => this.saveRevision(next),
    };
  }
}
