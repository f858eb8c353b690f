import type { ProfileVocabulary } from '@app/profiles';
import {
  scopedView as scoped,
  storedData as stored,
  UNSCOPED_VIEW as everything,
} from '@app/profiles/testing';
import {
  CONSENT_ATTRIBUTE_SEARCH,
  type ConsentAttributeSearch,
  consentSearchKeys,
} from './consent-attribute-search';

const search = CONSENT_ATTRIBUTE_SEARCH;
const types = (...consentTypeKeys: string[]): ConsentAttributeSearch => ({
  kind: 'consentAttributes',
  attributes: [{ Key: 'Channel', Value: 'Email' }],
  consentTypeKeys,
});

describe('consent attribute search: resolving the attributes', () => {
  const vocabulary = (names: string[]) =>
    ({ consentTypesWithAttributes: () => names }) as unknown as ProfileVocabulary;

  it('becomes the normalised names of the consent types carrying them all', () => {
    const resolved = search.resolve!(
      { kind: 'consentAttributes', attributes: [{ Key: 'Channel', Value: 'Email' }] },
      vocabulary([' Marketing  News', 'Terms']),
    );
    expect(resolved?.consentTypeKeys).toEqual(['marketing news', 'terms']);
    expect(search.keyQuery(resolved!)).toEqual([['consent:marketing news', 'consent:terms']]);
  });

  it('is nothing to look for when no consent type carries them', () => {
    expect(
      search.resolve!({ kind: 'consentAttributes', attributes: [] }, vocabulary([])),
    ).toBeUndefined();
  });
});

describe('consent attribute search: candidates and keys', () => {
  it('looks consents up in every container by the resolved consent type keys', () => {
    expect(search.candidateConditions(types('marketing'))).toEqual([
      {
        $or: [
          { 'data.Consents.Key': { $in: ['marketing'] } },
          { 'data.Emails.Consents.Key': { $in: ['marketing'] } },
          { 'data.PhoneNumbers.Consents.Key': { $in: ['marketing'] } },
          { 'data.Addresses.Consents.Key': { $in: ['marketing'] } },
        ],
      },
    ]);
  });

  it('indexes every consent, on inactive contact elements too (the index is a superset)', () => {
    const data = stored({
      Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0' }],
      Emails: [
        {
          EmailAddress: 'gone@example.com',
          IsActive: false,
          Consents: [{ ConsentType: 'Sms', ConsentVersion: '1.0' }],
        },
      ],
    });
    expect(new Set(consentSearchKeys(data))).toEqual(new Set(['consent:terms', 'consent:sms']));
  });
});

describe('consent attribute search: matching', () => {
  const data = stored({
    Consents: [{ ConsentType: 'Terms', ConsentVersion: '1.0', ConsentStatus: 1 }],
    Emails: [
      {
        EmailAddress: 'a@example.com',
        Consents: [{ ConsentType: 'Marketing', ConsentVersion: '1.0' }],
      },
      {
        EmailAddress: 'gone@example.com',
        IsActive: false,
        Consents: [{ ConsentType: 'Sms', ConsentVersion: '1.0' }],
      },
    ],
    PhoneNumbers: [
      {
        PhoneNumber: '555 0100',
        Consents: [{ ConsentType: 'Mail', ConsentVersion: '1.0', IsActive: false }],
      },
    ],
  });

  it('matches an active consent at profile level or on an active contact element', () => {
    expect(search.matches(data, types('terms'), everything)).toBe(true);
    expect(search.matches(data, types('marketing'), everything)).toBe(true);
    expect(search.matches(data, types('nope', 'marketing'), everything)).toBe(true);
    expect(search.matches(data, types('nope'), everything)).toBe(false);
  });

  it('ignores inactive consents and consents on inactive contact elements', () => {
    expect(search.matches(data, types('mail'), everything)).toBe(false);
    expect(search.matches(data, types('sms'), everything)).toBe(false);
  });

  it('does not match through a consent type outside the scope', () => {
    expect(search.matches(data, types('marketing'), scoped({ consentTypes: ['Terms'] }))).toBe(
      false,
    );
    expect(search.matches(data, types('marketing'), scoped({ consentTypes: ['MARKETING'] }))).toBe(
      true,
    );
    // A group without access to the consents area sees no consent.
    expect(search.matches(data, types('terms'), scoped({ consents: 'none' }))).toBe(false);
  });
});
