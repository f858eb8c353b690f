import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import type { HistoryEntry } from '../../libs/profiles/src/domain/profile-history';
import {
  HISTORY_PAGE_ENTRIES,
  ProfileHistoryRepository,
} from '../../libs/profiles/src/repositories/profile-history.repository';
import { startTestApp, type TestApp } from '../harness/test-app';

/**
 * History is stored in pages addressed by `_id` (a head and pages per profile): these
 * cases drive the repository on the real engine across page boundaries, retries and
 * erasures.
 */
describe('Profile history pages', () => {
  let app: TestApp;
  let history: ProfileHistoryRepository;
  let profileId = 0;
  const clientId = 'pages';

  beforeAll(async () => {
    app = await startTestApp({ workers: 0 });
    history = app.api.get(ProfileHistoryRepository);
  });
  afterAll(() => app.close());
  beforeEach(() => {
    profileId++;
  });

  /** `count` entries of write `seq` (standard fields), numbered n = 0.. */
  const entriesOf = (seq: number, count: number, tag = ''): HistoryEntry[] =>
    Array.from({ length: count }, (_, n) => ({
      _id: `${clientId}|${profileId}|${seq}|${n}`,
      clientId,
      profileId,
      seq,
      n,
      category: 'standard',
      modifiedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      snapshot: { Field: `f${n}`, Value: `${seq}.${n}${tag}` },
    }));

  const listed = async (appliedSeq: number) =>
    (await history.list(clientId, profileId, 'standard', appliedSeq)).map(
      (entry) =>
        `${entry.seq}.${entry.n}${String(entry.snapshot.Value).slice(String(`${entry.seq}.${entry.n}`).length)}`,
    );

  const pageCount = async () => {
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    const head = await db
      .collection<{ _id: string; pages?: number }>('profile_history')
      .findOne({ _id: `${clientId}|${profileId}|head` });
    return head?.pages ?? 0;
  };

  it('returns every entry in write order across many pages', async () => {
    const perWrite = 7;
    const writes = Math.ceil((HISTORY_PAGE_ENTRIES * 3) / perWrite); // spans 3+ pages
    for (let seq = 1; seq <= writes; seq++) await history.record(entriesOf(seq, perWrite));
    const all = await listed(writes);
    expect(all).toHaveLength(writes * perWrite);
    expect(all).toEqual(
      Array.from({ length: writes }, (_, s) =>
        Array.from({ length: perWrite }, (__, n) => `${s + 1}.${n}`),
      ).flat(),
    );
    expect(await pageCount()).toBe(Math.ceil((writes * perWrite) / HISTORY_PAGE_ENTRIES));
  });

  it('hides entries of writes after appliedSeq', async () => {
    await history.record(entriesOf(1, 2));
    await history.record(entriesOf(2, 2));
    expect(await listed(1)).toEqual(['1.0', '1.1']);
  });

  it('a retried write replaces what an interrupted attempt recorded, even across a page boundary', async () => {
    await history.record(entriesOf(1, HISTORY_PAGE_ENTRIES - 3));
    // An attempt of write 2 that spilled onto a second page, then never reached its save.
    await history.record(entriesOf(2, 10, 'first-attempt'));
    expect(await pageCount()).toBe(2);
    await history.record(entriesOf(2, 4));
    const all = await listed(2);
    expect(all.filter((e) => e.startsWith('2.'))).toEqual(['2.0', '2.1', '2.2', '2.3']);
    expect(all).toHaveLength(HISTORY_PAGE_ENTRIES - 3 + 4);
    expect(await pageCount()).toBe(2);
  });

  it('erases a failed write, and a deleted profile keeps no page', async () => {
    await history.record(entriesOf(1, 3));
    await history.record(entriesOf(2, HISTORY_PAGE_ENTRIES));
    await history.eraseWrite(clientId, profileId, 2);
    expect(await listed(2)).toEqual(['1.0', '1.1', '1.2']);
    expect(await pageCount()).toBe(1);

    await history.eraseProfile(clientId, profileId);
    expect(await listed(2)).toEqual([]);
    const db = app.api.get<Connection>(getConnectionToken()).db!;
    const left = await db
      .collection('profile_history')
      .countDocuments({ _id: { $regex: `^${clientId}\\|${profileId}\\|` } } as object);
    expect(left).toBe(0);
  });
});
