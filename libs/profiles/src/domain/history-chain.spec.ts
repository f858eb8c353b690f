import { createHash } from 'node:crypto';
import {
  chainCanonicalText,
  chainHistoryEntries,
  historyEntryHash,
  historyEntryId,
  verifyHistoryChain,
} from './history-chain';
import type { StoredConsent } from './profile-data.schema';
import type { ProfileHistory } from './profile-history.schema';
import { historyEntryKey } from '../keys';

const CHAINED = ['consent', 'preference'];

function entry(seq: number, n: number, category: string, status = 1): ProfileHistory {
  return {
    _id: historyEntryKey('c1', 7, seq, n),
    clientId: 'c1',
    profileId: 7,
    seq,
    n,
    category,
    modifiedAt: `2026-01-0${seq}T00:00:00.000Z`,
    list: 'Consents',
    snapshot: { ConsentType: 'Terms', ConsentStatus: status, IsActive: true },
  };
}

/** Three writes recorded one after the other, as the worker chains them. */
function recorded(): { entries: ProfileHistory[]; head: string | undefined } {
  let head: string | undefined;
  const all: ProfileHistory[] = [];
  const writes = [
    [entry(1, 0, 'standard'), entry(1, 1, 'consent'), entry(1, 2, 'preference')],
    [entry(2, 0, 'contact')],
    [entry(3, 0, 'consent', 3), entry(3, 1, 'consent', 1)],
  ];
  for (const write of writes) {
    const chained = chainHistoryEntries(head, write, CHAINED);
    head = chained.head;
    all.push(...chained.entries);
  }
  return { entries: all, head };
}

/** What a stored page gives back: the entry's JSON text, parsed. */
const stored = (entries: ProfileHistory[]) =>
  entries.map((e) => JSON.parse(JSON.stringify(e)) as ProfileHistory);

describe('history chain: hashing', () => {
  it('hashes the canonical JSON (RFC 8785) of the entry without its hash', () => {
    const value = { b: 1, a: 'x', hash: 'ignored', prevHash: null, nested: { z: true, y: [2, 1] } };
    expect(chainCanonicalText(value)).toBe(
      '{"a":"x","b":1,"nested":{"y":[2,1],"z":true},"prevHash":null}',
    );
    expect(historyEntryHash(value)).toBe(
      createHash('sha256').update(chainCanonicalText(value)).digest('hex'),
    );
    // Key order and the hash field do not matter; any content does.
    expect(historyEntryHash({ ...value, hash: 'other' })).toBe(historyEntryHash(value));
    expect(historyEntryHash({ nested: value.nested, prevHash: null, a: 'x', b: 1 })).toBe(
      historyEntryHash(value),
    );
    expect(historyEntryHash({ ...value, b: 2 })).not.toBe(historyEntryHash(value));
  });

  it('links the chained categories only, the first to null, each to the one before', () => {
    const { entries, head } = recorded();
    const chained = entries.filter((e) => CHAINED.includes(e.category));
    expect(chained.map(historyEntryId)).toEqual(['1.1', '1.2', '3.0', '3.1']);
    expect(chained[0].prevHash).toBeNull();
    for (let k = 1; k < chained.length; k++) {
      expect(chained[k].prevHash).toBe(chained[k - 1].hash);
    }
    for (const e of chained) expect(e.hash).toBe(historyEntryHash(e));
    expect(head).toBe(chained[3].hash);
    for (const e of entries.filter((x) => !CHAINED.includes(x.category))) {
      expect(e).not.toHaveProperty('hash');
      expect(e).not.toHaveProperty('prevHash');
    }
  });

  it('is deterministic: the same write after the same head gives identical entries', () => {
    const write = [entry(4, 0, 'consent'), entry(4, 1, 'preference')];
    const a = chainHistoryEntries('abc', write, CHAINED);
    const b = chainHistoryEntries('abc', write, CHAINED);
    expect(a).toEqual(b);
    expect(write[0]).not.toHaveProperty('hash'); // the input is left alone
    expect(chainHistoryEntries('abd', write, CHAINED).head).not.toBe(a.head);
  });

  it('keeps the head when a write records nothing chained', () => {
    expect(chainHistoryEntries('abc', [entry(5, 0, 'standard')], CHAINED).head).toBe('abc');
    expect(chainHistoryEntries(undefined, [], CHAINED).head).toBeUndefined();
  });
});

describe('history chain: verification', () => {
  it('accepts the chain as stored (JSON text), in any order, with its head', () => {
    const { entries, head } = recorded();
    const report = verifyHistoryChain(stored(entries).reverse(), CHAINED, head);
    expect(report).toEqual({ ok: true, chained: 4, unchained: 0, head, problems: [] });
  });

  it('names the entry whose content changed', () => {
    const { entries, head } = recorded();
    const tampered = stored(entries);
    (tampered[4].snapshot as StoredConsent).ConsentStatus = 1; // entry 3.0: Revoked becomes Granted
    const report = verifyHistoryChain(tampered, CHAINED, head);
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual([
      expect.objectContaining({ entryId: '3.0', reason: 'content-hash-mismatch' }),
    ]);
  });

  it('finds a rewritten hash by the next link, a removed entry, a stripped hash', () => {
    const { entries, head } = recorded();
    const rehashed = stored(entries);
    (rehashed[4].snapshot as StoredConsent).ConsentStatus = 1;
    rehashed[4].hash = historyEntryHash(rehashed[4]);
    expect(verifyHistoryChain(rehashed, CHAINED, head).problems).toEqual([
      expect.objectContaining({ entryId: '3.1', reason: 'broken-link' }),
    ]);

    const removed = stored(entries).filter((e) => historyEntryId(e) !== '1.2');
    expect(verifyHistoryChain(removed, CHAINED, head).problems).toEqual([
      expect.objectContaining({ entryId: '3.0', reason: 'broken-link' }),
    ]);

    const stripped = stored(entries);
    delete stripped[4].hash;
    delete stripped[4].prevHash;
    expect(verifyHistoryChain(stripped, CHAINED, head).problems.map((p) => p.reason)).toEqual([
      'missing-hash',
      'broken-link',
    ]);

    const first = stored(entries).filter((e) => historyEntryId(e) !== '1.1');
    expect(verifyHistoryChain(first, CHAINED).problems).toEqual([
      expect.objectContaining({ entryId: '1.2', reason: 'broken-link' }),
    ]);
  });

  it('finds entries cut off the end only against the saved head', () => {
    const { entries, head } = recorded();
    const cut = stored(entries).slice(0, -1);
    expect(verifyHistoryChain(cut, CHAINED).ok).toBe(true);
    expect(verifyHistoryChain(cut, CHAINED, head).problems).toEqual([
      expect.objectContaining({ entryId: '3.0', reason: 'head-mismatch' }),
    ]);
    expect(verifyHistoryChain([], CHAINED, head).problems).toEqual([
      expect.objectContaining({ entryId: null, reason: 'head-mismatch' }),
    ]);
  });

  it('counts entries recorded before chaining began, and checks what follows them', () => {
    const legacy = [entry(1, 0, 'consent'), entry(1, 1, 'preference')];
    const later = chainHistoryEntries(undefined, [entry(2, 0, 'consent', 3)], CHAINED);
    const report = verifyHistoryChain(stored([...legacy, ...later.entries]), CHAINED, later.head);
    expect(report).toMatchObject({ ok: true, chained: 1, unchained: 2 });
    // A legacy-looking entry after the chain began is a stripped hash.
    const after = stored([...later.entries, entry(3, 0, 'consent')]);
    expect(verifyHistoryChain(after, CHAINED, later.head).problems).toEqual([
      expect.objectContaining({ entryId: '3.0', reason: 'missing-hash' }),
    ]);
    // A profile with history only from before chaining: nothing to check, nothing wrong.
    expect(verifyHistoryChain(stored(legacy), CHAINED, null)).toMatchObject({
      ok: true,
      chained: 0,
      unchained: 2,
      head: null,
    });
  });
});
