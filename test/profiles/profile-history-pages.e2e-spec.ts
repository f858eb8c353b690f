import { getConnectionToken, getModelToken } from '@nestjs/mongoose';
import { tenantKey, TenantScopedModel } from '@app/shared';
import type { Connection } from 'mongoose';
import type { HistoryEntry } from '../../libs/profiles/src/domain/profile-history';
import type { StoredCustomField } from '../../libs/profiles/src/domain/profile-data.schema';
import {
  type HistorySnapshot,
  ProfileHistoryDoc,
} from '../../libs/profiles/src/domain/profile-history.schema';
import {
  HISTORY_PAGE_ENTRIES,
  ProfileHistoryRepository,
} from '../../libs/profiles/src/persistence/profile-history.repository';
import { startTestApp, type TestApp } from '../harness/test-app';

/**
 * History is stored in pages addressed by `_id`, counted by the profile document
 * (`historyPages` and `historyTail`, saved with the write that filled them): these cases
 * drive the repository on the real engine across page boundaries, retries and erasures.
 * `counted` plays the profile's counts: a write that reaches its save stores what
 * `recordPass` returned, an interrupted attempt does not. Every case runs twice: with the
 * last page's count known (appends by position, the page not read) and unknown (a profile
 * saved before the count was kept: the page is read and replaced).
 */
describe.each([
  ['the last page count known', true],
  ['the last page count unknown', false],
])('Profile history pages, %s', (_name, tailKnown) => {
  let app: TestApp;
  let history: ProfileHistoryRepository;
  let profileId = 0;
  let counted: { pages: number; tail?: number } = { pages: 0 };
  const clientId = tailKnown ? 'pages' : 'pages-read';

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    history = app.api.get(ProfileHistoryRepository);
  });
  afterAll(() => app.close());
  beforeEach(() => {
    profileId++;
    counted = { pages: 0 };
  });

  /** One write's entries recorded on the pages the profile counts (as the worker's pass). */
  const record = (entries: HistoryEntry[], options?: { lastWriteFailed: boolean }) =>
    history.recordPass(
      clientId,
      profileId,
      tailKnown ? counted : { pages: counted.pages },
      { fromSeq: entries[0].seq, toSeq: entries[0].seq, entries, erases: false },
      options,
    );
  /** A write that is applied: its entries recorded, the new counts saved. */
  const applied = async (entries: HistoryEntry[]) => {
    counted = await record(entries);
  };
  /** An attempt that recorded its entries and crashed before the profile's save. */
  const interrupted = async (entries: HistoryEntry[]) => {
    await record(entries);
  };

  /** `count` entries of write `seq` (standard fields), numbered n = 0.. */
  const entriesOf = (seq: number, count: number, tag = ''): HistoryEntry[] =>
    Array.from({ length: count }, (_, n) => ({
      _id: tenantKey(clientId, profileId, seq, n),
      clientId,
      profileId,
      seq,
      n,
      category: 'standard',
      modifiedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      snapshot: { Field: `f${n}`, Value: `${seq}.${n}${tag}` } as HistorySnapshot,
    }));

  const listed = async (appliedSeq: number) =>
    (await history.list(clientId, profileId, counted.pages, 'standard', appliedSeq)).map(
      (entry) =>
        `${entry.seq}.${entry.n}${String((entry.snapshot as StoredCustomField).Value).slice(String(`${entry.seq}.${entry.n}`).length)}`,
    );

  const pageDocs = async () => {
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    return db
      .collection('profile_history')
      .countDocuments({ _id: { $regex: `^${clientId}\\|${profileId}\\|` } } as object);
  };

  it('returns every entry in write order across many pages', async () => {
    const perWrite = 7;
    const writes = Math.ceil((HISTORY_PAGE_ENTRIES * 3) / perWrite); // spans 3+ pages
    for (let seq = 1; seq <= writes; seq++) await applied(entriesOf(seq, perWrite));
    const all = await listed(writes);
    expect(all).toHaveLength(writes * perWrite);
    expect(all).toEqual(
      Array.from({ length: writes }, (_, s) =>
        Array.from({ length: perWrite }, (__, n) => `${s + 1}.${n}`),
      ).flat(),
    );
    expect(counted.pages).toBe(Math.ceil((writes * perWrite) / HISTORY_PAGE_ENTRIES));
    expect(await pageDocs()).toBe(counted.pages);
  });

  it('hides entries of writes after appliedSeq', async () => {
    await applied(entriesOf(1, 2));
    await interrupted(entriesOf(2, 2));
    expect(await listed(1)).toEqual(['1.0', '1.1']);
    // Even an entry on a counted page stays hidden past the appliedSeq read with it.
    await applied(entriesOf(2, 2));
    expect(await listed(1)).toEqual(['1.0', '1.1']);
    expect(await listed(2)).toEqual(['1.0', '1.1', '2.0', '2.1']);
  });

  it('a retried write replaces what an interrupted attempt recorded, even across a page boundary', async () => {
    await applied(entriesOf(1, HISTORY_PAGE_ENTRIES - 3));
    // An attempt of write 2 that spilled onto uncounted pages, then never reached its save.
    await interrupted(entriesOf(2, HISTORY_PAGE_ENTRIES * 2, 'first-attempt'));
    expect(counted.pages).toBe(1);
    expect(await pageDocs()).toBe(3);
    expect(await listed(1)).toHaveLength(HISTORY_PAGE_ENTRIES - 3);
    await applied(entriesOf(2, 4));
    const all = await listed(2);
    expect(all.filter((e) => e.startsWith('2.'))).toEqual(['2.0', '2.1', '2.2', '2.3']);
    expect(all).toHaveLength(HISTORY_PAGE_ENTRIES - 3 + 4);
    expect(counted.pages).toBe(2);
  });

  it('erases a failed write, and a deleted profile keeps no page', async () => {
    await applied(entriesOf(1, 3));
    await interrupted(entriesOf(2, HISTORY_PAGE_ENTRIES));
    await history.eraseWrite(clientId, profileId, counted.pages, 2);
    expect(await listed(2)).toEqual(['1.0', '1.1', '1.2']);
    expect(counted.pages).toBe(1);
    // The next write fills the page again: none of the erased entries comes back.
    await applied(entriesOf(3, HISTORY_PAGE_ENTRIES));
    expect(await listed(3)).toHaveLength(3 + HISTORY_PAGE_ENTRIES);
    expect((await listed(3)).some((e) => e.startsWith('2.'))).toBe(false);

    await interrupted(entriesOf(4, HISTORY_PAGE_ENTRIES * 2));
    expect(await pageDocs()).toBeGreaterThan(counted.pages);
    await history.eraseProfile(clientId, profileId, counted.pages);
    expect(await listed(3)).toEqual([]);
    expect(await pageDocs()).toBe(0);
  });

  it('a write given up by another process leaves nothing behind', async () => {
    // A second repository stands for a second worker process (same engine).
    const other = new ProfileHistoryRepository(
      new TenantScopedModel(app.api.get(getModelToken(ProfileHistoryDoc.name))),
    );
    await applied(entriesOf(1, 3));
    // This process records write 2, then its save fails ...
    await interrupted(entriesOf(2, 2));
    // ... and the other process gives write 2 up: erased from the engine, appliedSeq 2.
    await other.eraseWrite(clientId, profileId, counted.pages, 2);
    counted = await record(entriesOf(3, 1), { lastWriteFailed: true });
    expect(await listed(3)).toEqual(['1.0', '1.1', '1.2', '3.0']);
  });

  it('appends again after the counted pages went (a deleted profile written again)', async () => {
    await applied(entriesOf(1, 3));
    await history.eraseProfile(clientId, profileId, counted.pages);
    // The profile still counts its page: the append finds it gone and writes it anew.
    await applied(entriesOf(2, HISTORY_PAGE_ENTRIES + 2));
    expect(await listed(2)).toHaveLength(HISTORY_PAGE_ENTRIES + 2);
    expect((await listed(2)).some((e) => e.startsWith('1.'))).toBe(false);
    expect(counted).toEqual({ pages: 2, tail: 2 });
  });

  it('a retry with fewer entries than the interrupted attempt shows none of the attempt', async () => {
    await applied(entriesOf(1, 2));
    await interrupted(entriesOf(2, 6, 'first-attempt'));
    await applied(entriesOf(2, 3));
    expect(await listed(2)).toEqual(['1.0', '1.1', '2.0', '2.1', '2.2']);
    expect(counted).toEqual({ pages: 1, tail: 5 });
    // The next write overwrites what the attempt left past the count.
    await applied(entriesOf(3, 2));
    expect(await listed(3)).toEqual(['1.0', '1.1', '2.0', '2.1', '2.2', '3.0', '3.1']);
  });

  it('appends to a page whose count is known without reading it, and to a full one on the next page', async () => {
    await applied(entriesOf(1, HISTORY_PAGE_ENTRIES - 1));
    await applied(entriesOf(2, 3)); // fills the page and opens the next
    expect(counted).toEqual({ pages: 2, tail: 2 });
    await applied(entriesOf(3, 2));
    await applied(entriesOf(4, HISTORY_PAGE_ENTRIES - 4)); // fills the second page exactly
    expect(counted).toEqual({ pages: 2, tail: HISTORY_PAGE_ENTRIES });
    await applied(entriesOf(5, 1));
    const all = await listed(5);
    expect(all).toHaveLength(HISTORY_PAGE_ENTRIES * 2 + 1);
    expect(all.slice(-9)).toEqual(['3.0', '3.1', '4.0', '4.1', '4.2', '4.3', '4.4', '4.5', '5.0']);
    expect(counted).toEqual({ pages: 3, tail: 1 });
  });
});
