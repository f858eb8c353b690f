import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { deepFreeze } from '@app/shared';
import { DncRepository } from '../dnc.repository';
import type { DncEntry, DncList, DncListType } from '../domain/dnc-list.schema';
import { dncKey } from '../domain/dnc-value';
import { DncStamps } from './dnc-stamps.service';

/** Values whose listings one process keeps per client, and clients it keeps. */
const CACHED_VALUES_PER_CLIENT = 50_000;
const CACHED_CLIENTS = 1000;
/** A backstop: a copy is reloaded after this even if a stamp change was lost. */
const MAX_AGE_MS = 60_000;

interface ClientListings {
  stamp: string;
  loadedAt: number;
  /** The client's lists by type (lists are never deleted; ids from 1). */
  lists: DncList[];
  /** listType + value key → the listed entries holding it (empty: none). */
  values: LRUCache<string, readonly DncEntry[]>;
}

/** What a do-not-contact lookup answers for one value. */
export interface DncListing {
  ListId: number;
  ListName: string;
  /** The value as the list holds it. */
  Value: string;
  ReasonCode?: string;
  ListedAt: string;
  /** false while the listing has not reached every profile holding the value. */
  Propagated: boolean;
}

/**
 * The lists holding a value, for the contact decisions' hot path: per process, a copy of
 * each client's lists and of the listings of the values asked, kept while the client's
 * do-not-contact stamp (DncStamps, one Redis read) is unchanged, so a decision costs no
 * database command when warm; a value not yet asked costs one `_id` read per list of its
 * type. Without Redis nothing is cached (every lookup reads by `_id`).
 */
@Injectable()
export class DoNotContactListings {
  private readonly clients = new LRUCache<string, ClientListings>({ max: CACHED_CLIENTS });

  constructor(
    private readonly repository: DncRepository,
    private readonly stamps: DncStamps,
  ) {}

  /**
   * The listings of each value (an email address for `Email`, a phone number for `Phone`),
   * by the value's key (`dncKey`); values that are not of the kind are absent.
   */
  async listingsOf(
    clientId: string,
    listType: DncListType,
    values: string[],
    /** The client's stamp, read by the caller with its other reads (`readStamp`). */
    stamp: Promise<string | null> = this.readStamp(clientId),
  ): Promise<Map<string, readonly DncListing[]>> {
    const keys = [...new Set(values.map((value) => dncKey(listType, value)))].filter(
      (key): key is string => key !== null,
    );
    const result = new Map<string, readonly DncListing[]>();
    if (!keys.length) return result;
    const cache = await this.cacheOf(clientId, await stamp);
    const lists = cache.lists.filter((list) => list.ListType === listType);
    const missing = keys.filter((key) => !cache.values.has(cacheKey(listType, key)));
    if (missing.length && lists.length) {
      const found = await Promise.all(
        missing.flatMap((key) =>
          lists.map((list) => this.repository.findEntry(clientId, list.listId, key)),
        ),
      );
      missing.forEach((key, index) => {
        const entries = found
          .slice(index * lists.length, (index + 1) * lists.length)
          .filter((entry): entry is DncEntry => entry?.state === 'listed');
        cache.values.set(cacheKey(listType, key), deepFreeze(entries));
      });
    }
    const names = new Map(lists.map((list) => [list.listId, list.Name]));
    for (const key of keys) {
      const entries = cache.values.get(cacheKey(listType, key)) ?? [];
      result.set(
        key,
        entries.map((entry) => ({
          ListId: entry.listId,
          ListName: names.get(entry.listId) ?? '',
          Value: entry.Value,
          ...(entry.ReasonCode ? { ReasonCode: entry.ReasonCode } : {}),
          ListedAt: new Date(entry.changedAt).toISOString(),
          Propagated: entry.propagatedAt !== null,
        })),
      );
    }
    return result;
  }

  /**
   * Starts reading the client's stamp: a caller that starts it with its other reads (the
   * contact decision: configuration stamp, read model) has them in one round trip. `reuse`:
   * a read path's, which may take the stamp this process read while no change was announced.
   */
  readStamp(clientId: string, reuse = false): Promise<string | null> {
    return this.stamps.current(clientId, reuse);
  }

  private async cacheOf(clientId: string, stamp: string | null): Promise<ClientListings> {
    const known = this.clients.get(clientId);
    if (stamp !== null && known?.stamp === stamp && Date.now() - known.loadedAt < MAX_AGE_MS)
      return known;
    const lists: DncList[] = [];
    for (let listId = 1; ; listId++) {
      const list = await this.repository.findList(clientId, listId);
      if (!list) break;
      lists.push(list);
    }
    const fresh: ClientListings = {
      stamp: stamp ?? '',
      loadedAt: Date.now(),
      lists,
      values: new LRUCache({ max: CACHED_VALUES_PER_CLIENT }),
    };
    // Without a stamp (Redis down) the copy serves this call only.
    if (stamp !== null) this.clients.set(clientId, fresh);
    return fresh;
  }
}

function cacheKey(listType: DncListType, key: string): string {
  return [listType, key].join('\t');
}
