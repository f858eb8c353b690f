import { tenantKey } from '@app/shared';
import {
  decodeHistoryEntries,
  encodeHistoryEntries,
  type HistorySnapshot,
  type ProfileHistory,
} from './profile-history.schema';

describe('history entries as stored in a page', () => {
  const entries = [1, 2].map((n): ProfileHistory => ({
    _id: tenantKey('c1', 7, 3, n),
    clientId: 'c1',
    profileId: 7,
    seq: 3,
    n,
    category: 'contact',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    list: 'Emails',
    container: { list: 'Emails', fields: { EmailAddress: `a${n}@example.com` } },
    // A field no stored shape has: the page keeps whatever the entry holds.
    snapshot: {
      EmailAddress: `a${n}@example.com`,
      IsActive: n === 1,
      Note: 'ü"\n',
    } as HistorySnapshot,
  }));

  it('stores each entry as its JSON text and reads it back unchanged', () => {
    const stored = encodeHistoryEntries(entries);
    expect(stored.every((entry) => typeof entry === 'string')).toBe(true);
    expect(decodeHistoryEntries({ _id: entries[0]._id, entries: stored })).toEqual(entries);
  });

  it('reads a page written before, whose entries are subdocuments, and a mix of both', () => {
    expect(decodeHistoryEntries({ _id: entries[0]._id, entries })).toEqual(entries);
    const mixed = [entries[0], ...encodeHistoryEntries([entries[1]])];
    expect(decodeHistoryEntries({ _id: entries[0]._id, entries: mixed })).toEqual(entries);
  });

  it('reads a missing page, or one without entries, as empty', () => {
    expect(decodeHistoryEntries(null)).toEqual([]);
    expect(decodeHistoryEntries({ _id: entries[0]._id })).toEqual([]);
  });
});
