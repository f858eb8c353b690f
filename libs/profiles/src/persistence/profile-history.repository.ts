import { Injectable } from '@nestjs/common';
import { insertEach, type TenantKey, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import type { AnyBulkWriteOperation, Collection } from 'mongodb';
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
  constructor(
    @InjectTenantScoped(ProfileHistoryDoc)
    private readonly docs: TenantScopedModel<ProfileHistoryDoc>,
  ) {}

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
   * count and how many entries the last page then holds (`tail`), to be saved with the
   * profile. Entries of `fromSeq` or later (left by an attempt that did not reach its save)
   * are dropped first, so the writes of the pass refused now (`erases`) keep none. A pass of
   * N writes leaves the same entries as N passes of one (fold.spec.ts).
   *
   * With the saved `tail` known (and nothing to erase), the page is not read: the entries
   * are set by position after the `tail` counted ones, with the page's count `n` (see
   * ProfileHistoryDoc.n), and further pages are written whole, all in one command. Entries
   * an interrupted attempt left past the count are not counted, and overwritten.
   */
  async recordPass(
    clientId: string,
    profileId: number,
    counted: { pages: number; tail?: number },
    pass: { fromSeq: number; toSeq: number; entries: HistoryEntry[]; erases: boolean },
    options: { lastWriteFailed: boolean } = { lastWriteFailed: false },
  ): Promise<{ pages: number; tail: number | undefined }> {
    const { pages, tail } = counted;
    if (!pass.entries.length && !pass.erases) return { pages, tail };
    // After a refused write, what the page holds is read (its entries may have to go).
    const read = options.lastWriteFailed || pass.erases;
    if (!read && pages > 0 && tail !== undefined && tail <= HISTORY_PAGE_ENTRIES) {
      const appended = await this.appendAfter(clientId, profileId, pages, tail, pass.entries);
      if (appended) return appended;
      // The counted last page is not there (a deleted profile's pages went): read as before.
    }
    // A refused write's entries go from what the engine holds (maybe another process's attempt).
    const history = await this.loadTail(clientId, profileId, pages, pass.fromSeq);
    this.dropFrom(history, pass.fromSeq);
    this.append(history, pass.entries);
    await this.save(history);
    return { pages: history.pages.length, tail: history.pages[history.pages.length - 1]?.length };
  }

  /**
   * `recordPass` without reading the last page: its `tail` counted entries stay, the new
   * ones are set after them by position (an update by `_id`), the rest fill new pages
   * (replaced whole). Answers null when the last page is missing (its whole pages written
   * already are written again by the caller's read path).
   */
  private async appendAfter(
    clientId: string,
    profileId: number,
    pages: number,
    tail: number,
    entries: HistoryEntry[],
  ): Promise<{ pages: number; tail: number } | null> {
    const last = pages - 1;
    const fit = entries.slice(0, HISTORY_PAGE_ENTRIES - tail);
    const ops: AnyBulkWriteOperation[] = [];
    let count = pages;
    let lastCount = tail;
    if (fit.length && tail > 0) {
      const positioned: Record<string, string | number> = { n: tail + fit.length };
      encodeHistoryEntries(fit).forEach((text, k) => (positioned[`entries.${tail + k}`] = text));
      ops.push({
        updateOne: {
          filter: { _id: historyPageKey(clientId, profileId, last) },
          update: { $set: positioned },
        },
      });
      lastCount = tail + fit.length;
    } else if (fit.length) {
      // An empty counted page: written whole.
      ops.push(this.wholePage(clientId, profileId, last, fit));
      lastCount = fit.length;
    }
    for (let at = fit.length; at < entries.length; at += HISTORY_PAGE_ENTRIES) {
      const page = entries.slice(at, at + HISTORY_PAGE_ENTRIES);
      ops.push(this.wholePage(clientId, profileId, count++, page));
      lastCount = page.length;
    }
    const result = await this.docs.collection.bulkWrite(ops, { ordered: true });
    if (fit.length && tail > 0) {
      // The whole pages replaced an existing page (matched) or inserted one (upserted).
      const wholePages = ops.length - 1;
      if (result.matchedCount - (wholePages - result.upsertedCount) < 1) return null;
    }
    return { pages: count, tail: lastCount };
  }

  private wholePage(
    clientId: string,
    profileId: number,
    page: number,
    entries: HistoryEntry[],
  ): AnyBulkWriteOperation {
    const _id = historyPageKey(clientId, profileId, page);
    return {
      replaceOne: {
        filter: { _id },
        replacement: { _id, entries: encodeHistoryEntries(entries) },
        upsert: true,
      },
    };
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
   * as of a past instant replays (read/get-profile-as-of).
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
   * reads a profile's pages one at a time: erasure/export-profile).
   */
  async page(clientId: string, profileId: number, page: number): Promise<ProfileHistory[]> {
    const doc = await this.docs.findStoredById<ProfileHistoryDoc>(
      historyPageKey(clientId, profileId, page),
    );
    return decodeHistoryEntries(doc);
  }

  /** The entries of one write: it failed after all, so it changed nothing. */
  async eraseWrite(clientId: string, profileId: number, pages: number, seq: number): Promise<void> {
    // What must go is what an attempt (maybe of another process) wrote there.
    const history = await this.loadTail(clientId, profileId, pages, seq);
    this.dropFrom(history, seq);
    await this.save(history);
  }

  /**
   * A deleted profile keeps no history: its counted pages, and any an interrupted attempt
   * wrote beyond them (deleted until the first that is not there).
   */
  async eraseProfile(clientId: string, profileId: number, pages: number): Promise<void> {
    for (let page = 0; ; page++) {
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
  ): Promise<LoadedHistory> {
    const pages: ProfileHistory[][] = Array.from({ length: count }, () => []);
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
   * The changed pages that are still counted (a page dropped from the tail is left unread),
   * each replaced whole.
   */
  private async save(history: LoadedHistory): Promise<void> {
    const { clientId, profileId, pages } = history;
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
  }
}
