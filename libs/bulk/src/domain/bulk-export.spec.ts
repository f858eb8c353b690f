import {
  afterFailedRun,
  callbackDelayMs,
  callbackWindowMs,
  callbackUrlProblem,
  changedSince,
  exportWindow,
  isBuilding,
  isDueToExpire,
  isReadable,
  matchKeyOf,
  rowBytes,
  rowsThatFit,
} from './bulk-export';

describe('bulk export rules', () => {
  describe('exportWindow (offset from 1, pages of any size)', () => {
    it('rows within the first page', () => {
      expect(exportWindow([3, 3, 1], 1, 2)).toEqual({
        first: 1,
        last: 2,
        hasMore: true,
        slices: [{ page: 1, from: 0, to: 2 }],
      });
    });

    it('rows across pages: the end of one, all of the next, the start of the third', () => {
      expect(exportWindow([2, 2, 3], 2, 4)).toEqual({
        first: 2,
        last: 5,
        hasMore: true,
        slices: [
          { page: 1, from: 1, to: 2 },
          { page: 2, from: 0, to: 2 },
          { page: 3, from: 0, to: 1 },
        ],
      });
    });

    it('the last rows: no more after them', () => {
      expect(exportWindow([2, 2, 1], 4, 10)).toEqual({
        first: 4,
        last: 5,
        hasMore: false,
        slices: [
          { page: 2, from: 1, to: 2 },
          { page: 3, from: 0, to: 1 },
        ],
      });
    });

    it('an offset past the end, and an empty export: nothing, nothing more', () => {
      expect(exportWindow([2, 1], 9, 5)).toEqual({ first: 9, last: 8, hasMore: false, slices: [] });
      expect(exportWindow([], 1, 5)).toEqual({ first: 1, last: 0, hasMore: false, slices: [] });
    });
  });

  describe('rowsThatFit', () => {
    it('fills a page up to its rows', () => {
      expect(rowsThatFit(['a', 'b', 'c'], { rows: 1, chars: 1 }, 3)).toBe(2);
      expect(rowsThatFit(['a'], { rows: 3, chars: 3 }, 3)).toBe(0);
    });

    it('up to its characters, but always one row on an empty page', () => {
      expect(rowsThatFit(['aaaa', 'bb'], { rows: 0, chars: 0 }, 10, 5)).toBe(1);
      expect(rowsThatFit(['aaaaaaaa'], { rows: 0, chars: 0 }, 10, 5)).toBe(1);
      expect(rowsThatFit(['aaaaaaaa'], { rows: 1, chars: 1 }, 10, 5)).toBe(0);
    });
  });

  describe('matchKeyOf', () => {
    const profile = {
      ProfileId: 7,
      Emails: [{ EmailAddress: 'a@x.com' }, { EmailAddress: 'b@x.com', IsDefault: true }],
      PhoneNumbers: [{ PhoneNumber: '+1 555' }],
      AlternateIds: [
        { AlternateIdType: 'Loyalty', AlternateId: 'L1' },
        { AlternateIdType: 'CRM', AlternateId: 'C1' },
      ],
    };

    it('ProfileID: the id', () => expect(matchKeyOf(profile, 'ProfileID')).toBe('7'));
    it('EmailAddress and PhoneNumber: the default one, else the first', () => {
      expect(matchKeyOf(profile, 'EmailAddress')).toBe('b@x.com');
      expect(matchKeyOf(profile, 'PhoneNumber')).toBe('+1 555');
    });
    it('AlternateID: the first of the type, compared as configuration names', () => {
      expect(matchKeyOf(profile, 'AlternateID', ' crm ')).toBe('C1');
      expect(matchKeyOf(profile, 'AlternateID', 'Other')).toBeNull();
    });
    it('null when the profile holds no such element', () => {
      expect(matchKeyOf({ ProfileId: 1, Emails: [] }, 'EmailAddress')).toBeNull();
      expect(matchKeyOf({ ProfileId: 1 }, 'PhoneNumber')).toBeNull();
    });
  });

  it('changedSince: saved at or after LastDateTime; none: every profile', () => {
    const at = new Date('2024-05-01T10:00:00.000Z');
    expect(changedSince(at, null)).toBe(true);
    expect(changedSince(at, at)).toBe(true);
    expect(changedSince(at, new Date(at.getTime() + 1))).toBe(false);
  });

  it('rowBytes: the UTF-8 bytes of the JSON text and a newline', () => {
    expect(rowBytes('{"a":1}')).toBe(8);
    expect(rowBytes('"é"')).toBe(5);
  });

  describe('statuses', () => {
    const now = new Date('2024-05-01T10:00:00.000Z');
    const expiresAt = now;
    it('building, readable', () => {
      expect(isBuilding({ status: 'Processing' })).toBe(true);
      expect(isBuilding({ status: 'Error' })).toBe(true);
      expect(isBuilding({ status: 'Complete' })).toBe(false);
      expect(isReadable({ status: 'Complete' })).toBe(true);
      expect(isReadable({ status: 'Retrieved' })).toBe(true);
      expect(isReadable({ status: 'Retrieved', pagesRemoved: true })).toBe(false);
      expect(isReadable({ status: 'Failed' })).toBe(false);
    });

    it('an ended export expires at Expires; one being built never does', () => {
      for (const status of ['Complete', 'Retrieved', 'Failed'] as const) {
        expect(isDueToExpire({ status, expiresAt }, now)).toBe(true);
        expect(isDueToExpire({ status, expiresAt }, new Date(now.getTime() - 1))).toBe(false);
      }
      for (const status of ['Processing', 'Error', 'Expired'] as const) {
        expect(isDueToExpire({ status, expiresAt }, now)).toBe(false);
      }
    });

    it('a failed run: Error until EXPORT_MAX_FAILURES in a row, then Failed', () => {
      expect(afterFailedRun({ failures: 0 }, 3)).toEqual({ status: 'Error', failures: 1 });
      expect(afterFailedRun({ failures: 1 }, 3)).toEqual({ status: 'Error', failures: 2 });
      expect(afterFailedRun({ failures: 2 }, 3)).toEqual({ status: 'Failed', failures: 3 });
    });
  });

  it('callbackUrlProblem: absolute http or https without credentials', () => {
    expect(callbackUrlProblem('https://example.com/hook?x=1')).toBeNull();
    expect(callbackUrlProblem('http://127.0.0.1:8080/')).toBeNull();
    expect(callbackUrlProblem('ftp://example.com/')).toBe('must be an http or https URL (not ftp)');
    expect(callbackUrlProblem('/relative')).toBe('must be an absolute http or https URL');
    expect(callbackUrlProblem('https://u:p@example.com/')).toBe('must not carry credentials');
  });

  it('callback attempts wait 1 s, then 4 s', () => {
    expect([1, 2].map(callbackDelayMs)).toEqual([1000, 4000]);
  });

  it("a callback's attempts are over after their delays, three timeouts and the slack", () => {
    expect(callbackWindowMs(5000, 60_000)).toBe(1000 + 4000 + 3 * 5000 + 60_000);
    expect(callbackWindowMs(100, 0)).toBe(5300);
  });
});
