import type { TenantKey } from '@app/shared';
import type { Model } from 'mongoose';
import { type Revisioned, RevisionStore } from '../../common/revision-store';
import type { EntryRevisions } from '../../common/save-with-retry';

/** A stored entry of the programs area: its id in `K`, its (unique) name in `Name`. */
type ProgramAreaEntry<K extends string> = Revisioned & { Name: string } & Record<K, number>;

/**
 * The revisions of one kind of the programs area (programs, program groups): numbered from 0,
 * each stored under `revisionKey`; every method is scoped by client and answers with the
 * latest revision of each entry.
 */
export class ProgramAreaRepository<K extends string, T extends ProgramAreaEntry<K>> {
  protected readonly store: RevisionStore<T>;

  constructor(
    model: Model<T>,
    private readonly entry: {
      /** The entry id field. */
      idField: K & keyof T;
      /** What messages call an entry ("Program", "Program group"). */
      label: string;
      revisionKey: (clientId: string, entryId: number, revision: number) => TenantKey;
      /** The stored form of a revision (derived fields recomputed); by default as given. */
      toStored?: (revision: T) => T;
    },
  ) {
    this.store = new RevisionStore(model, entry.idField);
  }

  listAll(clientId: string): Promise<T[]> {
    return this.store.list(clientId);
  }

  findById(clientId: string, entryId: number): Promise<T | null> {
    return this.store.findOne(clientId, entryId);
  }

  /** The name of entry `entryId`, or null (what a name claim asks of its holder). */
  async nameHeldBy(clientId: string, entryId: number): Promise<string | null> {
    return (await this.findById(clientId, entryId))?.Name ?? null;
  }

  /** The entry `entryId` (404 when unknown) or, without one, every entry. */
  listOrOne(clientId: string, entryId: number | undefined): Promise<T[]> {
    return this.store.listOrOne(clientId, entryId, this.entry.label);
  }

  /** What saveWithRetry reads and saves of entry `entryId` (404 when unknown). */
  revisionsOf(clientId: string, entryId: number): EntryRevisions<T> {
    return {
      what: `${this.entry.label} ${entryId}`,
      notFound: `${this.entry.label} ${entryId} was not found`,
      load: () => this.findById(clientId, entryId),
      save: (next: T, expectedRevision: number) => this.saveNextRevision(next, expectedRevision),
    };
  }

  /** Stores the first revision of new entries. */
  insertAll(entries: T[]): Promise<void> {
    return this.store.insertAll(entries.map((entry) => this.revision(entry, 0)));
  }

  /** Removes entries whose create failed half-way (never called on an answered create). */
  removeUnanswered(clientId: string, entryIds: number[]): Promise<void> {
    return this.store.removeUnanswered(clientId, entryIds);
  }

  /**
   * Stores `entry` as the revision after `expectedRevision`; false when that revision
   * exists already (another writer saved the entry since it was read).
   */
  saveNextRevision(entry: T, expectedRevision: number): Promise<boolean> {
    return this.store.saveRevision(this.revision(entry, expectedRevision + 1));
  }

  /** `entry` as its revision `revision`, the current one. */
  private revision(entry: T, revision: number): T {
    const { idField, revisionKey, toStored = (stored: T) => stored } = this.entry;
    return toStored({
      ...entry,
      _id: revisionKey(entry.clientId, entry[idField], revision),
      revision,
      current: true,
    });
  }
}
