import { ConsentStatus } from '@app/config';
import { consentExpirationDate, isConsentExpired } from './consent-expiry';
import { type ConsentRecord, type ConsentTypeTerms, settleConsent } from './consent-write';

const { Granted, Denied, Revoked } = ConsentStatus;
const at = '2026-03-01T10:00:00.000Z';
const terms: ConsentTypeTerms = {
  LatestVersion: '2.0',
  Versions: [
    { ConsentVersion: '1.0', ExpirationInDays: 30 },
    { ConsentVersion: '2.0', ExpirationInDays: 365 },
    { ConsentVersion: '3.0-draft', ExpirationInDays: 0 },
  ],
};
const noExpiry: ConsentTypeTerms = { LatestVersion: '1.0', Versions: [{ ConsentVersion: '1.0' }] };

describe('consent expiry', () => {
  it('adds whole days to the consent date', () => {
    expect(consentExpirationDate('2026-01-31T12:00:00Z', 30)).toBe('2026-03-02T12:00:00.000Z');
    expect(consentExpirationDate('2026-01-31', 1)).toBe('2026-02-01T00:00:00.000Z');
  });

  it('has no date without days, with 0 days, or with an unreadable date', () => {
    expect(consentExpirationDate(at, undefined)).toBeUndefined();
    expect(consentExpirationDate(at, null)).toBeUndefined();
    expect(consentExpirationDate(at, 0)).toBeUndefined();
    expect(consentExpirationDate('not a date', 10)).toBeUndefined();
  });

  it('is expired from its date on', () => {
    expect(isConsentExpired(undefined, at)).toBe(false);
    expect(isConsentExpired('2026-03-01T10:00:00.001Z', at)).toBe(false);
    expect(isConsentExpired(at, at)).toBe(true);
    expect(isConsentExpired('2026-02-01T00:00:00Z', at)).toBe(true);
  });
});

describe('settleConsent', () => {
  it('dates a new consent at the write, on the latest version, with its expiry', () => {
    expect(settleConsent(undefined, { ConsentStatus: Granted }, terms, at)).toEqual({
      ConsentStatus: Granted,
      ConsentVersion: '2.0',
      ConsentDate: at,
      ExpirationDate: '2027-03-01T10:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: false,
    });
  });

  it('counts the expiry from a given ConsentDate and ignores a sent ExpirationDate', () => {
    const settled = settleConsent(
      undefined,
      {
        ConsentStatus: Granted,
        ConsentVersion: '1.0',
        ConsentDate: '2026-02-20T00:00:00Z',
        ExpirationDate: '2099-01-01T00:00:00Z',
      },
      terms,
      at,
    );
    expect(settled).toMatchObject({
      ConsentDate: '2026-02-20T00:00:00Z',
      ExpirationDate: '2026-03-22T00:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: true, // 1.0 is not the latest version
    });
  });

  it("keeps a writer's ExpirationDate only on a version without days", () => {
    const settled = settleConsent(
      undefined,
      { ConsentStatus: Denied, ExpirationDate: '2099-01-01T00:00:00Z' },
      noExpiry,
      at,
    );
    expect(settled).toEqual({
      ConsentStatus: Denied,
      ConsentVersion: '1.0',
      ConsentDate: at,
      ExpirationDate: '2099-01-01T00:00:00Z',
      Expired: false,
      UpdatedVersionPending: false,
    });
    expect(
      settleConsent(undefined, { ConsentStatus: Granted, ConsentVersion: '3.0-draft' }, terms, at),
    ).not.toHaveProperty('ExpirationDate');
    // A new answer without a date of its own drops the old answer's date.
    expect(
      settleConsent(settled, { ...settled, ConsentStatus: Granted }, noExpiry, at),
    ).not.toHaveProperty('ExpirationDate');
    // A restated consent takes a new date, and is expired when it is past.
    expect(
      settleConsent(settled, { ...settled, ExpirationDate: '2026-01-01T00:00:00Z' }, noExpiry, at),
    ).toMatchObject({ ExpirationDate: '2026-01-01T00:00:00Z', Expired: true, ConsentDate: at });
  });

  it('marks a back-dated consent already past its expiry as expired', () => {
    const settled = settleConsent(
      undefined,
      { ConsentStatus: Granted, ConsentVersion: '1.0', ConsentDate: '2025-01-01T00:00:00Z' },
      terms,
      at,
    );
    expect(settled).toMatchObject({ ExpirationDate: '2025-01-31T00:00:00.000Z', Expired: true });
  });

  const stored: ConsentRecord = {
    ConsentStatus: Granted,
    ConsentVersion: '1.0',
    ConsentDate: '2026-01-01T00:00:00Z',
    ExpirationDate: '2026-01-31T00:00:00.000Z',
    Expired: true,
    UpdatedVersionPending: true,
    IsActive: true,
  };

  it('keeps a restated consent as stored, even when a PUT omits its derived fields', () => {
    // A merge copies the stored fields; a PUT restates only what the body names.
    expect(settleConsent(stored, { ...stored }, terms, at)).toEqual(stored);
    expect(
      settleConsent(
        stored,
        { ConsentStatus: Granted, IsActive: true, ExpirationDate: '2099-01-01T00:00:00Z' },
        terms,
        at,
      ),
    ).toEqual(stored);
  });

  it('keeps flags a system write set on an untouched consent', () => {
    const fresh = { ...stored, Expired: false, UpdatedVersionPending: false };
    expect(
      settleConsent(fresh, { ...fresh, Expired: true, UpdatedVersionPending: true }, terms, at),
    ).toMatchObject({ Expired: true, UpdatedVersionPending: true });
  });

  it('re-dates and re-derives on a status change', () => {
    expect(settleConsent(stored, { ...stored, ConsentStatus: Revoked }, terms, at)).toEqual({
      ...stored,
      ConsentStatus: Revoked,
      ConsentDate: at,
      ExpirationDate: '2026-03-31T10:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: true,
    });
  });

  it('clears UpdatedVersionPending on a re-consent on the latest version', () => {
    const settled = settleConsent(
      stored,
      { ...stored, ConsentVersion: '2.0', ConsentDate: undefined },
      terms,
      at,
    );
    expect(settled).toEqual({
      ...stored,
      ConsentVersion: '2.0',
      // Given now, on the new version.
      ConsentDate: at,
      ExpirationDate: '2027-03-01T10:00:00.000Z',
      Expired: false,
      UpdatedVersionPending: false,
    });
  });

  it('renews an expired consent restated with a new ConsentDate', () => {
    const settled = settleConsent(
      stored,
      { ...stored, ConsentDate: '2026-02-28T00:00:00Z' },
      terms,
      at,
    );
    expect(settled).toMatchObject({
      ConsentDate: '2026-02-28T00:00:00Z',
      ExpirationDate: '2026-03-30T00:00:00.000Z',
      Expired: false,
    });
  });

  it('keeps the stored version when a write omits it, and compares versions in any case', () => {
    expect(
      settleConsent<ConsentRecord>(stored, { ConsentStatus: Granted }, terms, at).ConsentVersion,
    ).toBe('1.0');
    expect(
      settleConsent(
        { ...stored, ConsentVersion: '2.0' },
        { ...stored, ConsentVersion: '2.0 ' },
        terms,
        at,
      ),
    ).toMatchObject({ Expired: true, UpdatedVersionPending: true });
  });

  it('starts a reactivated consent afresh', () => {
    const inactive = { ...stored, ConsentStatus: Revoked, IsActive: false };
    expect(
      settleConsent(inactive, { ConsentStatus: Revoked, IsActive: true }, terms, at),
    ).toMatchObject({ ConsentDate: at, Expired: false, ConsentVersion: '1.0' });
  });

  it('keeps a ConsentDate sent with a status change', () => {
    const revoked = settleConsent(
      undefined,
      { ConsentStatus: Revoked, ConsentVersion: '1.0', ConsentDate: at },
      noExpiry,
      at,
    );
    const regranted = settleConsent(
      revoked,
      { ...revoked, ConsentStatus: Granted, ConsentDate: '2026-01-02T03:04:05Z' },
      noExpiry,
      '2026-03-02T00:00:00.000Z',
    );
    expect(regranted).toMatchObject({
      ConsentStatus: Granted,
      ConsentDate: '2026-01-02T03:04:05Z',
    });
  });

  it('stores the latest version when ConsentVersion is omitted, and keeps the stored one on later writes', () => {
    const { NotSet } = ConsentStatus;
    expect(
      settleConsent<ConsentRecord>(undefined, { ConsentStatus: NotSet }, terms, at).ConsentVersion,
    ).toBe('2.0');
    const older = settleConsent(
      undefined,
      { ConsentStatus: NotSet, ConsentVersion: '1.0' },
      terms,
      at,
    );
    // A merge restates the stored fields; a PUT names only what it sends.
    for (const written of [{ ...older, ConsentStatus: Granted }, { ConsentStatus: Granted }]) {
      expect(settleConsent<ConsentRecord>(older, written, terms, at).ConsentVersion).toBe('1.0');
    }
  });

  it("sets ExpirationDate from the version's ExpirationInDays, ignoring a sent one", () => {
    expect(
      settleConsent(
        undefined,
        {
          ConsentStatus: Granted,
          ConsentVersion: '1.0',
          ConsentDate: '2030-05-01T00:00:00Z',
          ExpirationDate: '2099-01-01T00:00:00Z',
        },
        terms,
        at,
      ),
    ).toMatchObject({
      ConsentDate: '2030-05-01T00:00:00Z',
      ExpirationDate: '2030-05-31T00:00:00.000Z',
      Expired: false,
    });
    expect(
      settleConsent(undefined, { ConsentStatus: Granted, ConsentVersion: '2.0' }, terms, at),
    ).toMatchObject({
      ConsentDate: at,
      ExpirationDate: '2027-03-01T10:00:00.000Z',
      Expired: false,
    });
  });

  it('stores no ExpirationDate for a version without ExpirationInDays unless the writer sends one', () => {
    const plain = settleConsent<ConsentRecord>(
      undefined,
      { ConsentStatus: Granted, ConsentVersion: '1.0' },
      noExpiry,
      at,
    );
    expect(plain).not.toHaveProperty('ExpirationDate');
    expect(plain.Expired).toBe(false);
    const dated = settleConsent(
      undefined,
      { ConsentStatus: Granted, ConsentVersion: '1.0', ExpirationDate: '2099-01-01T00:00:00Z' },
      noExpiry,
      at,
    );
    expect(dated).toMatchObject({ ExpirationDate: '2099-01-01T00:00:00Z', Expired: false });
    // A new answer without a date of its own drops the old answer's date.
    expect(
      settleConsent(dated, { ...dated, ConsentStatus: Revoked }, noExpiry, at),
    ).not.toHaveProperty('ExpirationDate');
  });

  it('marks a back-dated consent already past its expiry as expired, and a renewal clears it', () => {
    const backDated = settleConsent(
      undefined,
      { ConsentStatus: Granted, ConsentVersion: '1.0', ConsentDate: '2020-01-01T00:00:00Z' },
      terms,
      at,
    );
    expect(backDated).toMatchObject({ ExpirationDate: '2020-01-31T00:00:00.000Z', Expired: true });
    const renewed = settleConsent(
      backDated,
      { ...backDated, ConsentStatus: Granted, ConsentDate: '2030-01-01T00:00:00Z' },
      terms,
      at,
    );
    expect(renewed).toMatchObject({ ExpirationDate: '2030-01-31T00:00:00.000Z', Expired: false });
  });

  it('leaves the flags alone for an unknown type', () => {
    expect(settleConsent(undefined, { ConsentStatus: Granted }, undefined, at)).toEqual({
      ConsentStatus: Granted,
      ConsentDate: at,
      Expired: false,
    });
  });
});
