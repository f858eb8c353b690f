import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { StoredTypeEntry } from '../domain/type-entry.schema';
import type { TypeKind } from '../type-kind';

export function typeEntryKey(
  clientId: string,
  kind: TypeKind,
  typeId: number,
  revision: number,
): string {
  return `${clientId}|${kind}|${typeId}|${revision}`;
}

/** Keeps the highest revision of each entry, in the order given (sorted by typeId first). */
export function latestRevisions(revisions: StoredTypeEntry[]): StoredTypeEntry[] {
  const latest = new Map<number, StoredTypeEntry>();
  for (const revision of revisions) {
    const known = latest.get(revision.typeId);
    if (!known || revision.revision > known.revision) latest.set(revision.typeId, revision);
  }
  return [...latest.values()];
}

/**
 * The `config_types` collection of entry revisions (see StoredTypeEntry); every method is
 * scoped by client id and kind and answers with the latest revision of each entry.
 */
@Injectable()
export class TypeEntryRepository {
  constructor(
    @InjectModel(StoredTypeEntry.name) private readonly entries: Model<StoredTypeEntry>,
  ) {}

  async list(clientId: string, kind: TypeKind): Promise<StoredTypeEntry[]> {
    const revisions = await this.entries
      .find({ clientId, kind, current: true })
      .sort({ typeId: 1, revision: -1 })
      .lean<StoredTypeEntry[]>()
      .exec();
    return latestRevisions(revisions);
  }

  async findOne(clientId: string, kind: TypeKind, typeId: number): Promise<StoredTypeEntry | null> {
    const [latest] = await this.entries
      .find({ clientId, kind, typeId })
      .sort({ revision: -1 })
      .limit(1)
      .lean<StoredTypeEntry[]>()
      .exec();
    return latest ?? null;
  }

  /** The entries whose current name is one of these normalised names (see normalizeTypeName). */
  async findByNameKeys(
    clientId: string,
    kind: TypeKind,
    nameKeys: string[],
  ): Promise<StoredTypeEntry[]> {
    const candidates = await this.entries
      .find({ clientId, kind, nameKey: { $in: nameKeys }, current: true }, { typeId: 1 })
      .lean<Pick<StoredTypeEntry, 'typeId'>[]>()
      .exec();
    if (!candidates.length) return [];
    // A candidate may be a revision just superseded under a name the entry no longer has.
    const typeIds = [...new Set(candidates.map((candidate) => candidate.typeId))];
    const revisions = await this.entries
      .find({ clientId, kind, current: true, typeId: { $in: typeIds } })
      .sort({ typeId: 1, revision: -1 })
      .lean<StoredTypeEntry[]>()
      .exec();
    return latestRevisions(revisions).filter((entry) => nameKeys.includes(entry.nameKey));
  }

  /**
   * Stores a revision. False when that revision of the entry exists already: another
   * writer saved the entry since it was read.
   */
  async insertRevision(entry: StoredTypeEntry): Promise<boolean> {
    try {
      await this.entries.create(entry);
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  /** Marks the revisions of an entry older than `revision` as superseded (never deletes them). */
  async supersedeBefore(
    clientId: string,
    kind: TypeKind,
    typeId: number,
    revision: number,
  ): Promise<void> {
    await this.entries.updateMany(
      { clientId, kind, typeId, revision: { $lt: revision }, current: true },
      { $set: { current: false } },
    );
  }

  /** Removes entries whose create failed half-way (never called on an answered entry). */
  async removeUnanswered(clientId: string, kind: TypeKind, typeIds: number[]): Promise<void> {
    if (!typeIds.length) return;
    await this.entries.deleteMany({ clientId, kind, typeId: { $in: typeIds } });
  }
}
