import type { TenantKey } from '@app/shared';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../../common/revision-store';
import { StoredTypeEntry } from '../domain/type-entry.schema';
import { TYPE_KINDS, type TypeKind } from '../domain/type-kind';
import { revisionKey } from '../../keys';

export function typeEntryKey(
  clientId: string,
  kind: TypeKind,
  typeId: number,
  revision: number,
): TenantKey {
  return revisionKey(clientId, kind, typeId, revision);
}

/**
 * The `config_types` collection of entry revisions (see StoredTypeEntry): one RevisionStore
 * per kind, so every method is scoped by client id and kind.
 */
@Injectable()
export class TypeEntryRepository {
  private readonly stores: Record<TypeKind, RevisionStore<StoredTypeEntry>>;
  /** Every kind at once (listEveryKind). */
  private readonly everyKind: RevisionStore<StoredTypeEntry>;

  constructor(@InjectModel(StoredTypeEntry.name) entries: Model<StoredTypeEntry>) {
    this.stores = Object.fromEntries(
      TYPE_KINDS.map((kind) => [kind, new RevisionStore(entries, 'typeId', { kind })]),
    ) as Record<TypeKind, RevisionStore<StoredTypeEntry>>;
    this.everyKind = new RevisionStore(entries, 'typeId');
  }

  list(clientId: string, kind: TypeKind): Promise<StoredTypeEntry[]> {
    return this.stores[kind].list(clientId);
  }

  /**
   * The entries of every kind, each in TypeId order: one query (the embedded engine decodes
   * the whole collection for any query but an `_id` one, so six would cost six times that).
   */
  async listEveryKind(clientId: string): Promise<Record<TypeKind, StoredTypeEntry[]>> {
    const byKind = await this.everyKind.listByPartition(clientId, 'kind');
    return Object.fromEntries(TYPE_KINDS.map((kind) => [kind, byKind.get(kind) ?? []])) as Record<
      TypeKind,
      StoredTypeEntry[]
    >;
  }

  findOne(clientId: string, kind: TypeKind, typeId: number): Promise<StoredTypeEntry | null> {
    return this.stores[kind].findOne(clientId, typeId);
  }

  /** The entries whose current name is one of these normalised names (see textKey). */
  findByNameKeys(clientId: string, kind: TypeKind, nameKeys: string[]): Promise<StoredTypeEntry[]> {
    return this.stores[kind].findByNameKeys(clientId, nameKeys);
  }

  /** Stores the first revision of new entries. */
  insertAll(kind: TypeKind, entries: StoredTypeEntry[]): Promise<void> {
    return this.stores[kind].insertAll(entries);
  }

  /** Stores the entry's next revision; false when another writer stored it first. */
  saveRevision(entry: StoredTypeEntry): Promise<boolean> {
    return this.stores[entry.kind as TypeKind].saveRevision(entry);
  }

  /** Removes entries whose create failed half-way (never called on an answered entry). */
  removeUnanswered(clientId: string, kind: TypeKind, typeIds: number[]): Promise<void> {
    return this.stores[kind].removeUnanswered(clientId, typeIds);
  }
}
