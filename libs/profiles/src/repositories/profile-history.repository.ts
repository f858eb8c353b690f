import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { insertEach, type TenantKey, TenantScopedModel } from '@app/shared';
import type { Collection } from 'mongodb';
import { LRUCache } from 'lru-cache';
import type { Model } from 'mongoose';
import type { HistoryEntry } from '../domain/profile-history';
import {
  decodeHistoryEntries,
  encodeHistoryEntries,
  type HistoryCategory,
  type ProfileHistory,
  ProfileHistoryDoc,
} from '../domain/profile-history.schema';
import { historyPageKey } from '../keys';

/**
 * Entries per page. The worker reads and replaces the last page with every write, so a
 * page stays small (an entry is a few hundred bytes to a KB): the engine's cost of that
 * read and replace follows the page's size. A profile with a hundred changes is still read
 * in ten `_id` lookups.
 */
export const HISTORY_PAGE_ENTRIES = 10;

/** Last pages one worker process remembers (see `lastPages`). */
const MAX_REMEMBERED_PAGES = 5000;

/** The pages of one profile's history as loaded for a change. */
interface LoadedHistory {
  clientId: string;
  profileId: number;
  pages: ProfileHistory[][];
  /** Indexes of pages changed since loading (to be saved). */
  changed: Set<number>;
}

/**
 * The `profile_history` collection: per profile, pages of entries `<client>|<profile>|p<k>`
 * (see ProfileHistoryDoc). How many pages a profile's history counts is kept in the profile
 * document (`historyPages`), saved with the write that filled them: so the worker's append
 * costs no read of a separate head, and a page written by an attempt that never reached its
 * save stays uncounted (unread) until a retry writes it again. Every command is by `_id`.
 */
@Injectable()
export class ProfileHistoryRepository {
  /**
   * The last page this process wrote for a profile, by page id, with the sequence number of
   * the write that wrote it. The next write of the profile (seq + 1) finds it here instead
   * of reading it back: only the worker holding the profile's lease writes pages, and a
   * page's entries below a sequence number never change, so the entries below the next
   * write are exactly these, unless that write failed after all (then `record` is told,
   * and reads the engine). Any other sequence number (another process applied writes
   * meanwhile) reads the engine too.
   */
  private readonly lastPages = new LRUCache<string, { seq: number; entries: ProfileHistory[] }>({
    max: MAX_REMEMBERED_PAGES,
  });

  private readonly docs: TenantScopedModel<ProfileHistoryDoc>;

  constructor(@InjectModel(ProfileHistoryDoc.name) docs: Model<ProfileHistoryDoc>) {
    this.docs = new TenantScopedModel(docs);
  }

  /**
   * Appends one write's entries after the `pages` pages the profile counts and returns the
   * new count, to be saved with the profile. Called by the worker before that save;
   * idempotent: entries of this seq or later (left by an attempt that did not reach its
   * save) are dropped first, then these are appended.
   */
  async record(
    pages: number,
    entries: HistoryEntry[],
    options: { lastWriteFailed: boolean } = { lastWriteFailed: false },
  ): Promise<number> {
    if (!entries.length) return pages;
    const { clientId, profileId, seq } = entries[0];
    // After a failed write, what a process remembers of it may hold entries that another
    // process erased when it gave the write up: read the engine.
    const history = await this.loadTail(clientId, profileId, pages, seq, {
      fresh: options.lastWriteFailed,
    });
    this.dropFrom(history, seq);
    this.append(history, entries);
    await this.save(history, seq);
    return history.pages.length;
  }

  private append(history: LoadedHistory, entries: HistoryEntry[]): void {
    for (const entry of entries) {
      let last = history.pages.length - 1;
      if (last < 0 || history.pages[last].length >= HISTORY_PAGE_ENTRIES) {
        history.pages.push([]);
        last++;
      }
      history.pages[last].push(entry);
      history.changed.add(last);
    }
  }

  /**
   * Appends the entries of one pass of writes (`fromSeq` to `toSeq`, in order) after the
   * `pages` pages the profile counts, writing each changed page once, and returns the new
   * count, to be saved with the profile. Entries of `fromSeq` or later (left by an attempt
   * that did not reach its save) are dropped first, so the writes of the pass refused now
   * (`erases`) keep none. The same pages as `record` called write by write.
   */
  async recordPass(
    clientId: string,
    profileId: number,
    pages: number,
    pass: { fromSeq: number; toSeq: number; entries: HistoryEntry[]; erases: boolean },
    options: { lastWriteFailed: boolean } = { lastWriteFailed: false },
  ): Promise<number> {
    if (!pass.entries.length && !pass.erases) return pages;
    // A refused write's entries must go from what the engine holds (maybe another
    // process's attempt), never from what this process remembers.
    const history = await this.loadTail(clientId, profileId, pages, pass.fromSeq, {
      fresh: options.lastWriteFailed || pass.erases,
    });
    this.dropFrom(history, pass.fromSeq);
    this.append(history, pass.entries);
    await this.save(history, pass.toSeq);
    return history.pages.length;
  }

  /**
   * Inserts the first pages of new profiles (CreateImportedProfilesHandler), in one
   * unordered command. A page already there was written by an earlier attempt of the same
   * batch: it is kept.
   */
  async insertPages(pages: Array<{ _id: TenantKey; entries: ProfileHistory[] }>): Promise<void> {
    if (!pages.length) return;
    const outcomes = await insertEach(
      this.docs.collection as unknown as Collection<ProfileHistoryDoc>,
      pages.map(({ _id, entries }) => ({ _id, entries: encodeHistoryEntries(entries) })),
    );
    const failed = outcomes.find((outcome) => outcome instanceof Error);
    if (failed) throw failed;
  }

  /**
   * One category of a profile's history, written by writes up to `appliedSeq` (the
   * profile as read, with its page count): entries of a write not saved (yet) are never
   * returned.
   */
  async list(
    clientId: string,
    profileId: number,
    pages: number,
    category: HistoryCategory,
    appliedSeq: number,
    filterKey?: string,
  ): Promise<ProfileHistory[]> {
    const entries = await this.allEntries(clientId, profileId, pages, appliedSeq);
    return entries.filter(
      (entry) =>
        entry.category === category && (filterKey === undefined || entry.filterKey === filterKey),
    );
  }

  /**
   * Every entry of a profile's history (all categories) written by writes up to
   * `appliedSeq`, in write order: the counted pages by `_id`, what a rebuild of the profile
   * as of a past instant replays (queries/get-profile-as-of).
   */
  async allEntries(
    clientId: string,
    profileId: number,
    pages: number,
    appliedSeq: number,
  ): Promise<ProfileHistory[]> {
    const docs = await Promise.all(
      Array.from({ length: pages }, (_, page) =>
        this.docs.findStoredById<ProfileHistoryDoc>(historyPageKey(clientId, profileId, page)),
      ),
    );
    return docs
      .flatMap((page) => decodeHistoryEntries(page))
      .filter((entry) => entry.seq <= appliedSeq)
      .sort((a, b) => a.seq - b.seq || a.n - b.n);
  }

  /**
   * The entries of one page exactly as stored, in the page's order (a data-subject export
   * reads a profile's pages one at a time: queries/export-profile).
   */
  async page(clientId: string, profileId: number, page: number): Promise<ProfileHistory[]> {
    const doc = await this.docs.findStoredById<ProfileHistoryDoc>(
      historyPageKey(clientId, profileId, page),
    );
    return decodeHistoryEntries(doc);
  }

  /** The entries of one write: it failed after all, so it changed nothing. */
  async eraseWrite(clientId: string, profileId: number, pages: number, seq: number): Promise<void> {
    // From the engine, never from `lastPages`: what must go is what an attempt (maybe of
    // another process) wrote there.
    const history = await this.loadTail(clientId, profileId, pages, seq, { fresh: true });
    this.dropFrom(history, seq);
    await this.save(history);
  }

  /**
   * A deleted profile keeps no history: its counted pages, and any an interrupted attempt
   * wrote beyond them (deleted until the first that is not there).
   */
  async eraseProfile(clientId: string, profileId: number, pages: number): Promise<void> {
    for (let page = 0; ; page++) {
      this.lastPages.delete(historyPageKey(clientId, profileId, page));
      const { deletedCount } = await this.docs.deleteOne({
        _id: historyPageKey(clientId, profileId, page),
      });
      if (!deletedCount && page >= pages) return;
    }
  }

  /**
   * The counted pages from the last back to the first that holds no entry of `seq` or later
   * (entries are in write order, so earlier pages cannot hold any); earlier pages are
   * represented as placeholders that are never saved.
   */
  private async loadTail(
    clientId: string,
    profileId: number,
    count: number,
    seq: number,
    options: { fresh: boolean } = { fresh: false },
  ): Promise<LoadedHistory> {
    const pages: ProfileHistory[][] = Array.from({ length: count }, () => []);
    const remembered =
      count && !options.fresh
        ? this.lastPages.get(historyPageKey(clientId, profileId, count - 1))
        : undefined;
    if (remembered && remembered.seq === seq - 1) {
      pages[count - 1] = [...remembered.entries];
      return { clientId, profileId, pages, changed: new Set() };
    }
    for (let page = count - 1; page >= 0; page--) {
      const doc = await this.docs.findStoredById<ProfileHistoryDoc>(
        historyPageKey(clientId, profileId, page),
      );
      pages[page] = decodeHistoryEntries(doc);
      if (!pages[page].some((entry) => entry.seq >= seq)) break;
    }
    // Pages before the one that stopped the walk are never changed (or saved): `dropFrom`
    // stops at that page and `record` only appends to the last.
    return { clientId, profileId, pages, changed: new Set() };
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
   * The changed pages that are still counted (a page dropped from the tail is left unread).
   * `seq`: the write whose entries end the last page (remembered, see `lastPages`); absent
   * when the pages were erased instead, which forgets what was remembered.
   */
  private async save(history: LoadedHistory, seq?: number): Promise<void> {
    const { clientId, profileId, pages } = history;
    const last = historyPageKey(clientId, profileId, pages.length - 1);
    this.lastPages.delete(last);
    for (const page of history.changed)
      this.lastPages.delete(historyPageKey(clientId, profileId, page));
    // The changed pages of one write or of a whole pass, in one command (each page by `_id`).
    const changed = [...history.changed]
      .filter((page) => page < pages.length)
      .sort((a, b) => a - b);
    if (changed.length === 1) {
      const _id = historyPageKey(clientId, profileId, changed[0]);
      await this.docs.replaceOne(
        { _id },
        { _id, entries: encodeHistoryEntries(pages[changed[0]]) },
        { upsert: true },
      );
    } else if (changed.length) {
      await this.docs.collection.bulkWrite(
        changed.map((page) => {
          const _id = historyPageKey(clientId, profileId, page);
          return {
            replaceOne: {
              filter: { _id } as object,
              replacement: { _id, entries: encodeHistoryEntries(pages[page]) },
              upsert: true,
            },
          };
        }),
        { ordered: true },
      );
    }
    if (seq !== undefined && pages.length) {
      this.lastPages.set(last, { seq, entries: pages[pages.length - 1] });
    }
  }
}
