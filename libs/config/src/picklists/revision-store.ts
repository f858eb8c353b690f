import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';

/**
 * What every stored revision of a configuration entry carries. `_id` is
 * `<clientId>|<kind>|<entryId>|<revision>`: a save never changes a stored document, it
 * inserts the entry's next revision, and the insert of that `_id` decides between two
 * concurrent writers (the loser gets error 11000, re-reads and redoes its change). That is
 * the only compare-and-set both engines make atomic: FerretDB v1.24 evaluates the filter of
 * a replaceOne/updateOne apart from its write, so a revision filter lets two writers through.
 * Revisions are never deleted (a deleted one could be inserted again by a writer that read
 * an older one); superseded ones are marked `current: false`, and reads take the highest
 * revision of each entry. They are the entry's history. (The types area does the same.)
 */
export interface Revisioned {
  _id: string;
  clientId: string;
  /** 1 on create, +1 per save. */
  revision: number;
  /** False once a later revision is stored (set after that insert; reads still take the highest). */
  current: boolean;
  /** The entry's name as compared for uniqueness. */
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
 * Reads and writes entry revisions of one collection; `idField` names the entry id field.
 * Every method is scoped by client id. Indexes the collection needs:
 * `{clientId, <id>, revision: -1}`, `{clientId, current, <id>}`, `{clientId, nameKey, current}`.
 */
export class RevisionStore<T extends Revisioned> {
  constructor(
    private readonly model: Model<T>,
    private readonly idField: keyof T & string,
  ) {}

  private idOf = (entry: T): number => entry[this.idField] as unknown as number;

  /** The latest revision of the entry, or null. */
  async findOne(clientId: string, entryId: number): Promise<T | null> {
    const [latest] = await this.model
      .find({ clientId, [this.idField]: entryId })
      .sort({ revision: -1 })
      .limit(1)
      .lean<T[]>()
      .exec();
    return latest ?? null;
  }

  /** The latest revision of every entry of the client, in id order. */
  async list(clientId: string): Promise<T[]> {
    const revisions = await this.model
      .find({ clientId, current: true })
      .sort({ [this.idField]: 1, revision: -1 })
      .lean<T[]>()
      .exec();
    return latestRevisions(revisions, this.idOf);
  }

  /** The entries whose latest revision has one of these normalised names. */
  async findByNameKeys(clientId: string, nameKeys: string[]): Promise<T[]> {
    const candidates = await this.model
      .find({ clientId, nameKey: { $in: nameKeys }, current: true }, { [this.idField]: 1 })
      .lean<T[]>()
      .exec();
    if (!candidates.length) return [];
    // A candidate may be a revision just superseded under a name the entry no longer has.
    const ids = [...new Set(candidates.map(this.idOf))];
    const revisions = await this.model
      .find({ clientId, current: true, [this.idField]: { $in: ids } })
      .sort({ [this.idField]: 1, revision: -1 })
      .lean<T[]>()
      .exec();
    return latestRevisions(revisions, this.idOf).filter((entry) =>
      nameKeys.includes(entry.nameKey),
    );
  }

  /** Stores a revision; false when it exists already (another writer saved the entry first). */
  async insertRevision(entry: T): Promise<boolean> {
    try {
      await this.model.create(entry);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Marks the entry's revisions older than `revision` as superseded (never deletes them). */
  async supersedeBefore(clientId: string, entryId: number, revision: number): Promise<void> {
    await this.model.updateMany(
      { clientId, [this.idField]: entryId, revision: { $lt: revision }, current: true },
      { $set: { current: false } },
    );
  }
}
