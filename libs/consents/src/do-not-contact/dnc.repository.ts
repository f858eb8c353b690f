import { Injectable } from '@nestjs/common';
import {
  isDuplicateKeyError,
  acrossTenants,
  type TenantKey,
  TenantScopedModel,
  InjectTenantScoped,
  insertAtNextFreeNumber,
} from '@app/shared';
import { randomUUID } from 'node:crypto';
import { DncEntry, DncList, type DncListType, DncPendingChange } from './domain/dnc-list.schema';
import { dncEntryKey, dncListKey } from '../keys';
import { DncStamps } from './services/dnc-stamps.service';

/** The `dnc_lists` and `dnc_entries` collections; every method is scoped by client id. */
@Injectable()
export class DncRepository {
  constructor(
    @InjectTenantScoped(DncList) private readonly lists: TenantScopedModel<DncList>,
    @InjectTenantScoped(DncEntry) private readonly entries: TenantScopedModel<DncEntry>,
    @InjectTenantScoped(DncPendingChange)
    private readonly pending: TenantScopedModel<DncPendingChange>,
    private readonly stamps: DncStamps,
  ) {}

  listsOf(clientId: string): Promise<DncList[]> {
    return this.lists.find({ clientId }).sort({ listId: 1 }).lean<DncList[]>().exec();
  }

  findList(clientId: string, listId: number): Promise<DncList | null> {
    return this.lists.findById(dncListKey(clientId, listId)).lean<DncList>().exec();
  }

  /** Claims the next list id by inserting the list (the unique `_id` decides). */
  async createList(list: Omit<DncList, '_id' | 'listId'>): Promise<DncList> {
    const [last] = await this.lists
      .find({ clientId: list.clientId }, { listId: 1 })
      .sort({ listId: -1 })
      .limit(1)
      .lean<DncList[]>()
      .exec();
    const doc = await insertAtNextFreeNumber(
      (last?.listId ?? 0) + 1,
      (listId): DncList => ({ ...list, _id: dncListKey(list.clientId, listId), listId }),
      (claim) => this.lists.create(claim),
    );
    if (!doc) throw new Error(`Client ${list.clientId} has used every list id`);
    await this.stamps.changed(list.clientId);
    return doc;
  }

  /** One page of a list's entries (listed and removed), in key order after `afterKey`. */
  entriesOf(
    clientId: string,
    listId: number,
    afterKey: string,
    limit: number,
  ): Promise<DncEntry[]> {
    return this.entries
      .find({ clientId, listId, key: { $gt: afterKey } })
      .sort({ key: 1 })
      .limit(limit)
      .lean<DncEntry[]>()
      .exec();
  }

  findEntry(clientId: string, listId: number, key: string): Promise<DncEntry | null> {
    return this.entries
      .findById(dncEntryKey(clientId, listId, key))
      .lean<DncEntry>()
      .exec();
  }

  /**
   * Puts the value on the list (or back on it), to be propagated. A value already listed
   * is left as it is: adding it again changes nothing.
   */
  async list(entry: {
    clientId: string;
    listId: number;
    ListType: DncListType;
    Value: string;
    key: string;
    ReasonCode?: string;
    changedBy: string;
    at: Date;
  }): Promise<'added' | 'unchanged'> {
    const _id = dncEntryKey(entry.clientId, entry.listId, entry.key);
    const existing = await this.entries.findById(_id).lean<DncEntry>().exec();
    if (existing?.state === 'listed') return 'unchanged';
    const doc = {
      clientId: entry.clientId,
      listId: entry.listId,
      ListType: entry.ListType,
      Value: entry.Value,
      key: entry.key,
      state: 'listed' as const,
      ReasonCode: entry.ReasonCode,
      changedAt: entry.at,
      changedBy: entry.changedBy,
      version: (existing?.version ?? 0) + 1,
      changeId: randomUUID(),
      propagatedAt: null,
      cursor: 0,
    };
    await this.entries.replaceOne({ _id }, { _id, ...doc }, { upsert: true }).exec();
    await this.stamps.changed(entry.clientId);
    await this.markPending(_id, entry.at);
    return 'added';
  }

  /** Takes the value off the list, to be propagated; false when it is not listed. */
  async unlist(
    clientId: string,
    listId: number,
    key: string,
    changedBy: string,
    at: Date,
  ): Promise<boolean> {
    const _id = dncEntryKey(clientId, listId, key);
    const existing = await this.entries.findById(_id).lean<DncEntry>().exec();
    if (existing?.state !== 'listed') return false;
    await this.entries
      .replaceOne(
        { _id },
        {
          ...existing,
          state: 'removed',
          changedAt: at,
          changedBy,
          version: existing.version + 1,
          changeId: randomUUID(),
          propagatedAt: null,
          cursor: 0,
        },
      )
      .exec();
    await this.stamps.changed(clientId);
    await this.markPending(_id, at);
    return true;
  }

  /** The listed entries of any of the client's lists holding one of `keys`. */
  async listedWithKeys(
    clientId: string,
    listType: DncListType,
    keys: string[],
  ): Promise<DncEntry[]> {
    if (!keys.length) return [];
    // By `_id` only (the worker calls this when a write adds contacts): the client's lists
    // are numbered from 1 and never deleted, so they are found by probing ids in order.
    const lists: DncList[] = [];
    for (let listId = 1; ; listId++) {
      const list = await this.findList(clientId, listId);
      if (!list) break;
      if (list.ListType === listType) lists.push(list);
    }
    const found = await Promise.all(
      lists.flatMap((list) =>
        keys.map((key) =>
          this.entries
            .findById(dncEntryKey(clientId, list.listId, key))
            .lean<DncEntry>()
            .exec(),
        ),
      ),
    );
    return found.filter((entry): entry is DncEntry => entry?.state === 'listed');
  }

  /**
   * Changes not yet applied to the profiles (any client), oldest first: the entries named
   * by the pending-change markers (a scan of the backlog only), each read by `_id`.
   */
  async pendingPropagationAcrossTenants(limit: number): Promise<DncEntry[]> {
    const markers = await this.pending.find(acrossTenants()).lean<DncPendingChange[]>().exec();
    markers.sort(
      (a, b) => a.changedAt.getTime() - b.changedAt.getTime() || a._id.localeCompare(b._id),
    );
    const found: DncEntry[] = [];
    for (const marker of markers) {
      if (found.length >= limit) break;
      const entry = await this.entries.findById(marker._id).lean<DncEntry>().exec();
      if (entry && entry.propagatedAt === null) found.push(entry);
      else await this.pending.deleteOne({ _id: marker._id });
    }
    return found;
  }

  /**
   * Records progress of the entry's propagation, unless the entry changed meanwhile. By
   * `_id` with the version checked in code (a version filter would scan on the embedded
   * engine); a change landing between the check and the update is caught by the re-read.
   */
  async saveCursor(entry: DncEntry, cursor: number): Promise<void> {
    if (!(await this.isCurrent(entry))) return;
    await this.entries.updateOne({ _id: entry._id }, { $set: { cursor } }).exec();
    if (!(await this.isCurrent(entry)))
      await this.entries.updateOne({ _id: entry._id }, { $set: { cursor: 0 } }).exec();
  }

  /** Marks the entry's change as applied to every profile, unless it changed meanwhile. */
  async markPropagated(entry: DncEntry, at: Date): Promise<void> {
    if (!(await this.isCurrent(entry))) return;
    await this.entries.updateOne({ _id: entry._id }, { $set: { propagatedAt: at } }).exec();
    // Decisions show whether a listing reached the profiles (DoNotContactListings).
    await this.stamps.changed(entry.clientId);
    if (!(await this.isCurrent(entry))) {
      // A newer change landed meanwhile: it is still to propagate, from the start.
      await this.entries
        .updateOne({ _id: entry._id }, { $set: { propagatedAt: null, cursor: 0 } })
        .exec();
      return;
    }
    // The marker goes after the entry is marked; a change that lands after this removal
    // inserts it again (list/unlist write the entry, then the marker).
    await this.pending.deleteOne({ _id: entry._id });
    const again = await this.entries.findById(entry._id).lean<DncEntry>().exec();
    if (again && again.propagatedAt === null) await this.markPending(entry._id, again.changedAt);
  }

  private async isCurrent(entry: DncEntry): Promise<boolean> {
    const now = await this.entries.findById(entry._id).lean<DncEntry>().exec();
    return now?.version === entry.version && now?.changeId === entry.changeId;
  }

  private async markPending(_id: TenantKey, changedAt: Date): Promise<void> {
    try {
      await this.pending.create({ _id, changedAt });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }
}
