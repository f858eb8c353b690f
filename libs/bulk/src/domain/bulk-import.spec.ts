import {
  appendToPages,
  chunkRecords,
  dailyImportQuota,
  exceptionWindow,
  importsWithinDay,
  INITIATES_KEPT,
  independentGroups,
  isExpired,
  matchValueOf,
  pageOf,
  readableUntil,
  refreshedCollections,
  sortStagedRecords,
} from './bulk-import';

describe('bulk import rules', () => {
  describe('exceptionWindow (offset from 1, pages of a fixed size)', () => {
    it('the first page of records', () => {
      expect(exceptionWindow(7, 1, 5, 3)).toEqual({
        first: 1,
        last: 5,
        pages: [1, 2],
        hasMore: true,
      });
    });

    it('the last records: no more after them', () => {
      expect(exceptionWindow(7, 6, 5, 3)).toEqual({
        first: 6,
        last: 7,
        pages: [2, 3],
        hasMore: false,
      });
    });

    it('exactly the total: no more', () => {
      expect(exceptionWindow(6, 1, 6, 3)).toEqual({
        first: 1,
        last: 6,
        pages: [1, 2],
        hasMore: false,
      });
    });

    it('an offset past the total: nothing, no pages read', () => {
      expect(exceptionWindow(4, 9, 10, 3)).toEqual({
        first: 9,
        last: 8,
        pages: [],
        hasMore: false,
      });
    });

    it('no exceptions at all', () => {
      expect(exceptionWindow(0, 1, 1000, 500)).toEqual({
        first: 1,
        last: 0,
        pages: [],
        hasMore: false,
      });
    });
  });

  describe('appendToPages', () => {
    it('fills the partly filled last page first, then opens new ones', () => {
      expect(appendToPages(4, ['d'], ['e', 'f', 'g', 'h'], 3)).toEqual([
        { page: 2, records: ['d', 'e', 'f'] },
        { page: 3, records: ['g', 'h'] },
      ]);
    });

    it('after a full page, starts the next one', () => {
      expect(appendToPages(3, [], ['d'], 3)).toEqual([{ page: 2, records: ['d'] }]);
    });

    it('from nothing', () => {
      expect(appendToPages(0, [], ['a', 'b', 'c', 'd'], 3)).toEqual([
        { page: 1, records: ['a', 'b', 'c'] },
        { page: 2, records: ['d'] },
      ]);
    });

    it('nothing added: no page written', () => {
      expect(appendToPages(4, ['d'], [], 3)).toEqual([]);
    });

    it('agrees with pageOf', () => {
      expect([1, 3, 4, 6, 7].map((n) => pageOf(n, 3))).toEqual([1, 1, 2, 2, 3]);
    });
  });

  describe('chunkRecords', () => {
    it('splits by count', () => {
      expect(chunkRecords([1, 2, 3, 4, 5], 2, 1000)).toEqual([[1, 2], [3, 4], [5]]);
    });

    it('splits by size of JSON text, never leaving a chunk empty', () => {
      const big = 'x'.repeat(10);
      expect(chunkRecords([big, big, 'y'], 100, 14)).toEqual([[big], [big], ['y']]);
    });

    it('no records: no chunk', () => {
      expect(chunkRecords([], 2, 10)).toEqual([]);
    });
  });

  describe('matchValueOf', () => {
    it('the active pair of the type, compared as a text key', () => {
      const body = {
        AlternateIds: [
          { AlternateIdType: 'Loyalty', AlternateId: 'L1' },
          { AlternateIdType: ' crm ', AlternateId: 'C1' },
        ],
      };
      expect(matchValueOf(body, 'CRM')).toBe('C1');
    });

    it('an inactive or blank pair, or none: null', () => {
      expect(
        matchValueOf(
          { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'C1', IsActive: false }] },
          'CRM',
        ),
      ).toBeNull();
      expect(
        matchValueOf({ AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: ' ' }] }, 'CRM'),
      ).toBeNull();
      expect(matchValueOf({}, 'CRM')).toBeNull();
      expect(matchValueOf('text', 'CRM')).toBeNull();
    });
  });

  describe('sortStagedRecords', () => {
    const state = { matchValue: 'CRM', received: 10, stages: 2 };
    const ok = () => ({ invalid: [], forbidden: [] });

    it('numbers records after those received, stages the valid ones', () => {
      const body = { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A' }] };
      expect(sortStagedRecords(state, [body], ok)).toEqual({
        staged: [{ n: 11, stage: 3, index: 0, body }],
        exceptions: [],
      });
    });

    it("a slice of a stage keeps the records' positions in the stage (from)", () => {
      const body = { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A' }] };
      const result = sortStagedRecords(state, [body, {}], ok, 50);
      expect(result.staged).toEqual([{ n: 61, stage: 3, index: 50, body }]);
      expect(result.exceptions).toEqual([
        expect.objectContaining({ n: 62, stage: 3, index: 51, alternateId: null }),
      ]);
    });

    it('a refused record is an exception with every reason, permissions named', () => {
      const body = { AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'A' }] };
      const result = sortStagedRecords(state, [{}, body], (record) =>
        record === body
          ? { invalid: ['Invalid Tier (value 1)'], forbidden: ['Preferences of program 7'] }
          : ok(),
      );
      expect(result.staged).toEqual([]);
      expect(result.exceptions).toEqual([
        {
          n: 11,
          stage: 3,
          index: 0,
          alternateId: null,
          reason: expect.stringMatching(
            /^AlternateIds holds no active AlternateId of type "CRM".*value null$/,
          ),
        },
        {
          n: 12,
          stage: 3,
          index: 1,
          alternateId: 'A',
          reason: 'Invalid Tier (value 1); Not permitted: Preferences of program 7',
        },
      ]);
    });
  });

  it('isExpired: from the expiry instant on', () => {
    const expiresAt = new Date('2026-01-01T12:00:00Z');
    expect(isExpired({ expiresAt }, new Date('2026-01-01T11:59:59.999Z'))).toBe(false);
    expect(isExpired({ expiresAt }, expiresAt)).toBe(true);
  });

  describe('readableUntil (Status and Exceptions)', () => {
    const expiresAt = new Date('2026-01-01T12:00:00Z');
    const day = 24 * 60 * 60 * 1000;
    it('Expires before Execute', () => {
      const state = { status: 'Staging' as const, expiresAt, dataStageDuration: 3 };
      expect(readableUntil(state)).toEqual(expiresAt);
    });
    it('no end while the import runs', () => {
      for (const status of ['Queued', 'Processing'] as const)
        expect(readableUntil({ status, expiresAt, dataStageDuration: 0 })).toBeNull();
    });
    it('DataStageDuration days after the end, and never before Expires', () => {
      const endedAt = new Date('2026-01-01T10:00:00Z');
      const ended = { status: 'Completed' as const, expiresAt, endedAt };
      expect(readableUntil({ ...ended, dataStageDuration: 2 })).toEqual(
        new Date(endedAt.getTime() + 2 * day),
      );
      expect(readableUntil({ ...ended, dataStageDuration: 0 })).toEqual(expiresAt);
    });
  });

  it('refreshedCollections: the profile collections each Refresh* flag names', () => {
    const none = {
      AlternateIds: false,
      Contacts: false,
      CustomFields: false,
      Groups: false,
      Tags: false,
    };
    expect(refreshedCollections(none)).toEqual([]);
    expect(refreshedCollections({ ...none, Contacts: true, Tags: true })).toEqual([
      'Emails',
      'PhoneNumbers',
      'Addresses',
      'ProfileTags',
    ]);
    expect(
      refreshedCollections({
        AlternateIds: true,
        Contacts: false,
        CustomFields: true,
        Groups: true,
        Tags: false,
      }),
    ).toEqual(['AlternateIds', 'CustomFields', 'Groups']);
  });

  describe('dailyImportQuota (a rolling 24 hours)', () => {
    const now = new Date('2026-01-02T12:00:00Z');
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3600_000);
    it('allows under the limit and keeps the times of the window with now', () => {
      expect(dailyImportQuota([hoursAgo(30), hoursAgo(5)], now, 2)).toEqual({
        allowed: true,
        initiated: [hoursAgo(5), now],
      });
    });
    it('refuses at the limit until the oldest in the window leaves it', () => {
      expect(dailyImportQuota([hoursAgo(1), hoursAgo(20)], now, 2)).toEqual({
        allowed: false,
        retryAfterSeconds: 4 * 3600,
      });
    });
    it('0 is no limit', () => {
      const many = Array.from({ length: 50 }, (_, i) => hoursAgo(i / 10));
      expect(dailyImportQuota(many, now, 0).allowed).toBe(true);
    });
    it('keeps up to INITIATES_KEPT times (or the limit, if higher), for a limit changed later', () => {
      const many = Array.from({ length: INITIATES_KEPT + 200 }, (_, i) => hoursAgo(i / 100));
      const unlimited = dailyImportQuota(many, now, 0);
      expect(unlimited.allowed && unlimited.initiated.length).toBe(INITIATES_KEPT);
      expect(unlimited.allowed && unlimited.initiated.at(-1)).toEqual(now);
      const high = dailyImportQuota(many, now, INITIATES_KEPT + 500);
      expect(high.allowed && high.initiated.length).toBe(INITIATES_KEPT + 201);
    });
    it('importsWithinDay: those of the last 24 hours, oldest first', () => {
      expect(importsWithinDay([hoursAgo(1), hoursAgo(25), hoursAgo(23)], now)).toEqual([
        hoursAgo(23),
        hoursAgo(1),
      ]);
    });
  });

  describe('independentGroups', () => {
    it('records sharing a key, directly or through another, in one group in record order', () => {
      expect(independentGroups([['a'], ['b'], ['a', 'c'], ['d'], ['c', 'e'], ['e'], []])).toEqual([
        [0, 2, 4, 5],
        [1],
        [3],
        [6],
      ]);
    });
    it('a later record joining two earlier groups merges them', () => {
      expect(independentGroups([['a'], ['b'], ['a', 'b']])).toEqual([[0, 1, 2]]);
    });
  });
});
