import { applyProfileWrite } from '../../domain/profile-merge';
import type { ProfileData } from '../../domain/profile-data.schema';
import { type CallerScope, normaliseScope, type ProfileView } from '../../domain/profile-view';
import {
  answeredData,
  candidateConditions,
  type MatchCriteria,
  profileMatches,
} from './profile-search.criteria';

const stamp = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };

/** Stored data as the worker builds it (normalised keys derived). */
function stored(body: Record<string, unknown>): ProfileData {
  return applyProfileWrite(undefined, { CustomerType: 'Customer', ...body }, 'overwrite', stamp);
}

const everything: ProfileView = { implied: false };
const withImplied: ProfileView = { implied: true };
/** A restricted user group's view: the listed names only, full access to both areas. */
const scoped = (lists: Partial<CallerScope>): ProfileView => ({
  implied: false,
  scope: normaliseScope({ consents: 'write', preferences: 'write', ...lists }),
});

const preference = (programId: string, attributes: object[], extra: object = {}) => ({
  ProgramId: programId,
  ChannelId: 'Email',
  FilterId: '1',
  PreferenceAttributes: attributes,
  ...extra,
});

describe('candidateConditions', () => {
  it('looks emails and custom fields up by their normalised keys', () => {
    expect(candidateConditions({ kind: 'email', emailAddress: '  Jane@Example.COM ' })).toEqual([
      { 'data.Emails.Key': 'jane@example.com' },
    ]);
    expect(
      candidateConditions({ kind: 'customFields', fields: [{ Name: ' My  Tier', Value: 'x' }] }),
    ).toEqual([{ 'data.CustomFields.Key': 'my tier' }]);
  });

  it('looks consents up in every container by the resolved consent type keys', () => {
    const [condition] = candidateConditions({
      kind: 'consentTypes',
      consentTypeKeys: ['marketing'],
    });
    expect(condition).toEqual({
      $or: [
        { 'data.Consents.Key': { $in: ['marketing'] } },
        { 'data.Emails.Consents.Key': { $in: ['marketing'] } },
        { 'data.PhoneNumbers.Consents.Key': { $in: ['marketing'] } },
        { 'data.Addresses.Consents.Key': { $in: ['marketing'] } },
      ],
    });
  });

  it('needs every listed preference attribute key somewhere', () => {
    const conditions = candidateConditions({
      kind: 'preferenceAttributes',
      attributes: [
        { Key: 'Topic', Value: 'x' },
        { Key: 'a.b', Value: 'y' },
      ],
    });
    expect(conditions).toHaveLength(2);
    const [, second] = conditions as { $or: Record<string, { $regex: string }>[] }[];
    expect(second.$or).toHaveLength(4);
    // Regex metacharacters of the key are taken literally.
    expect(second.$or[0]['data.ProfilePreferences.PreferenceAttributes.Key'].$regex).toBe(
      '^\\s*a\\.b\\s*$',
    );
  });
});

describe('profileMatches: custom fields and the caller scope', () => {
  const data = stored({
    CustomFields: [
      { Name: 'Tier', Value: 'Gold' },
      { Name: 'c1', Value: 'red::blue' },
      { Name: 'Old', Value: 'x', IsActive: false },
    ],
  });
  const byTier: MatchCriteria = { kind: 'customFields', fields: [{ Name: 'TIER', Value: 'gold' }] };
  const bySelect: MatchCriteria = {
    kind: 'selectList',
    fields: [{ OperatorId: 3, Name: 'c1', Values: ['BLUE'] }],
  };

  it('matches visible active fields case-insensitively', () => {
    expect(profileMatches(data, byTier, everything)).toBe(true);
    expect(profileMatches(data, bySelect, everything)).toBe(true);
    expect(profileMatches(data, byTier, scoped({ customFields: ['tier'] }))).toBe(true);
    expect(
      profileMatches(
        data,
        { kind: 'customFields', fields: [{ Name: 'Old', Value: 'x' }] },
        everything,
      ),
    ).toBe(false);
  });

  it('does not match through a custom field outside the scope', () => {
    expect(profileMatches(data, byTier, scoped({ customFields: ['c1'] }))).toBe(false);
    expect(profileMatches(data, bySelect, scoped({ customFields: ['Tier'] }))).toBe(false);
    expect(profileMatches(data, bySelect, scoped({ customFields: [] }))).toBe(false);
  });
});

describe('profileMatches: consent types', () => {
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
  const types = (...consentTypeKeys: string[]): MatchCriteria => ({
    kind: 'consentTypes',
    consentTypeKeys,
  });

  it('matches an active consent at profile level or on an active contact element', () => {
    expect(profileMatches(data, types('terms'), everything)).toBe(true);
    expect(profileMatches(data, types('marketing'), everything)).toBe(true);
    expect(profileMatches(data, types('nope', 'marketing'), everything)).toBe(true);
  });

  it('ignores inactive consents and consents on inactive contact elements', () => {
    expect(profileMatches(data, types('mail'), everything)).toBe(false);
    expect(profileMatches(data, types('sms'), everything)).toBe(false);
  });

  it('does not match through a consent type outside the scope', () => {
    expect(profileMatches(data, types('marketing'), scoped({ consentTypes: ['Terms'] }))).toBe(
      false,
    );
    expect(profileMatches(data, types('marketing'), scoped({ consentTypes: ['MARKETING'] }))).toBe(
      true,
    );
    // A group without access to the consents area sees no consent.
    expect(profileMatches(data, types('terms'), scoped({ consents: 'none' }))).toBe(false);
  });

  it('never matches an inactive profile', () => {
    expect(profileMatches({ ...data, IsActive: false }, types('terms'), everything)).toBe(false);
  });
});

/** Preferences become inactive by archiving, not through a body: set it on the stored data. */
function archivedThird(body: Record<string, unknown>): ProfileData {
  const data = stored(body);
  data.ProfilePreferences[2].IsActive = false;
  return data;
}

describe('profileMatches and answeredData: preference attributes', () => {
  const data = archivedThird({
    ProfilePreferences: [
      preference('10', [
        { Key: 'Topic', Value: 'News' },
        { Key: 'Lang', Value: 'EN' },
      ]),
      preference('11', [{ Key: 'Topic', Value: 'Sport' }]),
      preference('12', [{ Key: 'Topic', Value: 'Deals' }]),
    ],
    Emails: [
      {
        EmailAddress: 'a@example.com',
        EmailPreferences: [
          preference('20', [{ Key: 'topic', Value: 'news' }]),
          preference('21', [{ Key: 'Topic', Value: 'Hints' }], { MatchType: 'Implied' }),
        ],
      },
    ],
  });
  const attributes = (...pairs: [string, string][]): MatchCriteria => ({
    kind: 'preferenceAttributes',
    attributes: pairs.map(([Key, Value]) => ({ Key, Value })),
  });

  it('needs one active preference holding every listed attribute', () => {
    expect(profileMatches(data, attributes([' TOPIC ', 'news']), everything)).toBe(true);
    expect(profileMatches(data, attributes(['Topic', 'News'], ['Lang', 'en']), everything)).toBe(
      true,
    );
    // Both attributes exist, but not on one preference.
    expect(profileMatches(data, attributes(['Topic', 'Sport'], ['Lang', 'EN']), everything)).toBe(
      false,
    );
    expect(profileMatches(data, attributes(['Topic', 'Deals']), everything)).toBe(false);
  });

  it('matches implied preferences only when the view asks for them', () => {
    expect(profileMatches(data, attributes(['Topic', 'Hints']), everything)).toBe(false);
    expect(profileMatches(data, attributes(['Topic', 'Hints']), withImplied)).toBe(true);
  });

  it('does not match through a preference of a program outside the scope', () => {
    expect(profileMatches(data, attributes(['Topic', 'Sport']), scoped({ programs: ['10'] }))).toBe(
      false,
    );
    expect(profileMatches(data, attributes(['Topic', 'Sport']), scoped({ programs: ['11'] }))).toBe(
      true,
    );
    // A group without access to the preferences area sees no preference.
    expect(
      profileMatches(data, attributes(['Topic', 'Sport']), scoped({ preferences: 'none' })),
    ).toBe(false);
  });

  it('answers only the matching preferences, in every container', () => {
    const answer = answeredData(data, attributes(['Topic', 'News']), everything);
    expect(answer.ProfilePreferences.map((p) => p.ProgramId)).toEqual(['10']);
    expect(answer.Emails[0].EmailPreferences.map((p) => p.ProgramId)).toEqual(['20']);
    expect(answer.Emails[0].EmailAddress).toBe('a@example.com');
    // Other searches answer the stored data unchanged.
    expect(answeredData(data, { kind: 'tags', tags: ['x'] }, everything)).toBe(data);
  });
});
