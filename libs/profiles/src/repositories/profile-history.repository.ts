import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { HistoryEntry } from '../domain/profile-history';
import {
  type HistoryCategory,
  type ProfileHistory,
  ProfileHistoryDoc,
} from '../domain/profile-history.schema';

/**
 * Entries per page: a page stays in the tens of KB (an entry is a few hundred bytes to a
 * KB), so the worker's read and replace of the last page stay cheap, while a profile with
 * hundreds of changes is still read in a handful of `_id` lookups.
 */
export const HISTORY_PAGE_ENTRIES = 50;

const headId = (clientId: string, profileId: number) => `${clientId}|${profileId}|head`;
const pageId = (clientId: string, profileId: number, page: number) =>
  `${clientId}|${profileId}|p${page}`;

/** The pages of one profile's history as loaded for a change. */
interface LoadedHistory {
  clientId: string;
  profileId: number;
  pages: ProfileHistory[][];
  /** How many pages the head counted when loaded. */
  loadedCount: number;
  /** Indexes of pages changed since loading (to be saved). */
  changed: Set<number>;
}

/**
 * The `profile_history` collection: per profile a head and pages of entries (see
 * ProfileHistoryDoc), every command addressed by `_id`.
 */
@Injectable()
export class ProfileHistoryRepository {
  constructor(
    @InjectModel(ProfileHistoryDoc.name) private readonly docs: Model<ProfileHistoryDoc>,
  ) {}

  /**
   * Appends one write's entries. Called by the worker before it saves the profile with
   * the write's seq; idempotent: entries of this seq or later (left by an attempt that did
   * not reach its save) are dropped first, then these are appended.
   */
  async record(entries: HistoryEntry[]): Promise<void> {
    if (!entries.length) return;
    const { clientId, profileId, seq } = entries[0];
    const history = await this.loadTail(clientId, profileId, seq);
    this.dropFrom(history, seq);
    for (const entry of entries) {
      let last = history.pages.length - 1;
      if (last < 0 || history.pages[last].length >= HISTORY_PAGE_ENTRIES) {
        history.pages.push([]);
        last++;
      }
      history.pages[last].push(entry);
      history.changed.add(last);
    }
    await this.save(history);
  }

  /**
   * One category of a profile's history, written by writes up to `appliedSeq` (the
   * profile as read): entries of a write not saved (yet) are never returned.
   */
  async list(
    clientId: string,
    profileId: number,
    category: HistoryCategory,
    appliedSeq: number,
    filterKey?: string,
  ): Promise<ProfileHistory[]> {
    const head = await this.docs.findById(headId(clientId, profileId)).lean<ProfileHistoryDoc>();
    const count = head?.pages ?? 0;
    const pages = await Promise.all(
      Array.from({ length: count }, (_, page) =>
        this.docs
          .findById(pageId(clientId, profileId, page))
          .lean<ProfileHistoryDoc>()
          .exec(),
      ),
    );
    return pages
      .flatMap((page) => page?.entries ?? [])
      .filter(
        (entry) =>
          entry.seq <= appliedSeq &&
          entry.category === category &&
          (filterKey === undefined || entry.filterKey === filterKey),
      )
      .sort((a, b) => a.seq - b.seq || a.n - b.n);
  }

  /** The entries of one write: it failed after all, so it changed nothing. */
  async eraseWrite(clientId: string, profileId: number, seq: number): Promise<void> {
    const history = await this.loadTail(clientId, profileId, seq);
    this.dropFrom(history, seq);
    await this.save(history);
  }

  /** A deleted profile keeps no history. */
  async eraseProfile(clientId: string, profileId: number): Promise<void> {
    const head = await this.docs.findById(headId(clientId, profileId)).lean<ProfileHistoryDoc>();
    for (let page = 0; page < (head?.pages ?? 0); page++) {
      await this.docs.deleteOne({ _id: pageId(clientId, profileId, page) });
    }
    await this.docs.deleteOne({ _id: headId(clientId, profileId) });
  }

  /**
   * The head's pages from the last back to the first that holds no entry of `seq` or later
   * (entries are in write order, so earlier pages cannot hold any); earlier pages are
   * represented as loaded-but-unread placeholders that are never saved.
   */
  private async loadTail(clientId: string, profileId: number, seq: number): Promise<LoadedHistory> {
    const head = await this.docs.findById(headId(clientId, profileId)).lean<ProfileHistoryDoc>();
    const count = head?.pages ?? 0;
    const pages: ProfileHistory[][] = Array.from({ length: count }, () => []);
    for (let page = count - 1; page >= 0; page--) {
      const doc = await this.docs
        .findById(pageId(clientId, profileId, page))
        .lean<ProfileHistoryDoc>()
        .exec();
      pages[page] = doc?.entries ?? [];
      if (!pages[page].some((entry) => entry.seq >= seq)) break;
    }
    // Pages before the one that stopped the walk are never changed: a placeholder of the
    // right fullness is all `record` needs (it only appends to the last page).
    return { clientId, profileId, pages, loadedCount: count, changed: new Set() };
  }

  /** Drops entries of `seq` or later; emptied trailing pages go (except the first). */
  private dropFrom(history: LoadedHistory, seq: number): void {
    for (let page = history.pages.length - 1; page >= 0; page--) {
      const kept = history.pages[page].filter((entry) => entry.seq < seq);
      if (kept.length !== history.pages[page].length) {
        history.pages[page] = kept;
        history.changed.add(page);
      }
      if (kept.length && kept.length === history.pages[page].length) break;
    }
    while (history.pages.length > 1 && !history.pages[history.pages.length - 1].length) {
      history.pages.pop();
    }
  }

  /**
   * Pages first, then the head: pages beyond the head's count are invisible until then;
   * pages the head no longer counts are deleted after it.
   */
  private async save(history: LoadedHistory): Promise<void> {
    const { clientId, profileId, pages } = history;
    for (const page of [...history.changed].sort((a, b) => a - b)) {
      if (page >= pages.length) continue; // dropped: beyond the head's new count
      const _id = pageId(clientId, profileId, page);
      await this.docs.replaceOne({ _id }, { _id, entries: pages[page] }, { upsert: true });
    }
    const _id = headId(clientId, profileId);
    // Most writes only grow the last page: the head changes when the page count does.
    if (pages.length !== history.loadedCount) {
      await this.docs.replaceOne({ _id }, { _id, pages: pages.length }, { upsert: true });
    }
    for (let page = pages.length; page < history.loadedCount; page++) {
      await this.docs.deleteOne({ _id: pageId(clientId, profileId, page) });
    }
  }
}
