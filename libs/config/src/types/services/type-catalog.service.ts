import { Injectable } from '@nestjs/common';
import { textKey } from '@app/shared';
import { toTypeEntry, type TypeEntry } from '../mapping/type-entry.mapper';
import { TypeDefaultRepository } from '../repositories/type-default.repository';
import { TypeEntryRepository } from '../repositories/type-entry.repository';
import { TYPE_KINDS, type TypeKind } from '../domain/type-kind';
export type { TypeEntry } from '../mapping/type-entry.mapper';

/**
 * The type-configuration entries of a client, for other modules (the profile write
 * validation refuses unknown or inactive customer, address, alternate id and group types
 * with it). Read-only; inactive entries are included, with `IsActive: false`.
 */
@Injectable()
export class TypeCatalog {
  constructor(
    private readonly entries: TypeEntryRepository,
    private readonly defaults: TypeDefaultRepository,
  ) {}

  /** The entry of that name (case-insensitive, surrounding and repeated spaces ignored), or null. */
  async findByName(clientId: string, kind: TypeKind, name: string): Promise<TypeEntry | null> {
    const [found, defaultTypeId] = await Promise.all([
      this.entries.findByNameKeys(clientId, kind, [textKey(name)]),
      this.defaults.get(clientId, kind),
    ]);
    return found.length ? toTypeEntry(found[0], defaultTypeId) : null;
  }

  /** Every entry of the kind, active or not, in TypeId order. */
  async list(clientId: string, kind: TypeKind): Promise<TypeEntry[]> {
    const [all, defaultTypeId] = await Promise.all([
      this.entries.list(clientId, kind),
      this.defaults.get(clientId, kind),
    ]);
    return all.map((entry) => toTypeEntry(entry, defaultTypeId));
  }

  /** Every entry of every kind, as `list` gives each (two queries in all, not two per kind). */
  async listEveryKind(clientId: string): Promise<Record<TypeKind, TypeEntry[]>> {
    const [entries, defaults] = await Promise.all([
      this.entries.listEveryKind(clientId),
      this.defaults.getEveryKind(clientId),
    ]);
    return Object.fromEntries(
      TYPE_KINDS.map((kind) => [
        kind,
        entries[kind].map((entry) => toTypeEntry(entry, defaults[kind])),
      ]),
    ) as Record<TypeKind, TypeEntry[]>;
  }

  /** The default entry of the kind, or null when none is marked default. */
  async findDefault(clientId: string, kind: TypeKind): Promise<TypeEntry | null> {
    const defaultTypeId = await this.defaults.get(clientId, kind);
    if (defaultTypeId === null) return null;
    const entry = await this.entries.findOne(clientId, kind, defaultTypeId);
    return entry ? toTypeEntry(entry, defaultTypeId) : null;
  }
}
