import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { DncEntry, DncList, type DncListType } from './domain/dnc-list.schema';

const listKey = (clientId: string, listId: number) => `${clientId}|${listId}`;
const entryKey = (clientId: string, listId: number, key: string) => `${clientId}|${listId}|${key}`;

/** The `dnc_lists` and `dnc_entries` collections; every method is scoped by client id. */
@Injectable()
export class DncRepository {
  constructor(
    @InjectModel(DncList.name) private readonly lists: Model<DncList>,
    @InjectModel(DncEntry.name) private readonly entries: Model<DncEntry>,
  ) {}

  listsOf(clientId: string): Promise<DncList[]> {
    return this.lists.find({ clientId }).sort({ listId: 1 }).lean<DncList[]>().exec();
  }

  findList(clientId: string, listId: number): Promise<DncList | null> {
    return this.lists.findById(listKey(clientId, listId)).lean<DncList>().exec();
  }

  /** Claims the next list id by inserting the list (the unique `_id` decides). */
  async createList(list: Omit<DncList, '_id' | 'listId'>): Promise<DncList> {
    const [last] = await this.lists
      .find({ clientId: list.clientId }, { listId: 1 })
      .sort({ listId: -1 })
      .limit(1)
      .lean<DncList[]>()
      .exec();
    for (let listId = (last?.listId ?? 0) + 1; ; listId++) {
      const doc: DncList = { ...list, _id: listKey(list.clientId, listId), listId };
      try {
        await this.lists.create(doc);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
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
      .findById(entryKey(clientId, listId, key))
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
    const _id = entryKey(entry.clientId, entry.listId, entry.key);
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
      propagatedAt: null,
      cursor: 0,
    };
    await this.entries.replaceOne({ _id }, { _id, ...doc }, { upsert: true }).exec();
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
    const _id = entryKey(clientId, listId, key);
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
          propagatedAt: null,
          cursor: 0,
        },
      )
      .exec();
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
            .findById(entryKey(clientId, list.listId, key))
            .lean<DncEntry>()
            .exec(),
        ),
      ),
    );
    return found.filter((entry): entry is DncEntry => entry?.state === 'listed');
  }

  /** Changes not yet applied to the profiles (any client), oldest first. */
  pendingPropagation(limit: number): Promise<DncEntry[]> {
    return this.entries
      .find({ propagatedAt: null })
      .sort({ changedAt: 1 })
      .limit(limit)
      .lean<DncEntry[]>()
      .exec();
  }

  /** Records progress of the entry's propagation, unless the entry changed meanwhile. */
  async saveCursor(entry: DncEntry, cursor: number): Promise<void> {
    await this.entries
      .updateOne({ _id: entry._id, version: entry.version }, { $set: { cursor } })
      .exec();
  }

  /** Marks the entry's change as applied to every profile, unless it changed meanwhile. */
  async markPropagated(entry: DncEntry, at: Date): Promise<void> {
    await this.entries
      .updateOne({ _id: entry._id, version: entry.version }, { $set: { propagatedAt: at } })
      .exec();
  }
}
