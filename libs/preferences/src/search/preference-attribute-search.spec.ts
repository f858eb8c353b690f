import type { ProfileData, ProfileView } from '@app/profiles';
import {
  scopedView as scoped,
  storedData as stored,
  UNSCOPED_VIEW as everything,
} from '@app/profiles/testing';
import {
  PREFERENCE_ATTRIBUTE_SEARCH,
  type PreferenceAttributeSearch,
  preferenceSearchKeys,
} from './preference-attribute-search';

const withImplied: ProfileView = { implied: true };

const preference = (programId: string, attributes: object[], extra: object = {}) => ({
  ProgramId: programId,
  ChannelId: 'Email',
  FilterId: '1',
  PreferenceAttributes: attributes,
  ...extra,
});

const search = PREFERENCE_ATTRIBUTE_SEARCH;
const attributes = (...pairs: [string, string][]): PreferenceAttributeSearch => ({
  kind: 'preferenceAttributes',
  attributes: pairs.map(([Key, Value]) => ({ Key, Value })),
});

describe('preference attribute search: candidates and keys', () => {
  it('needs every listed attribute key somewhere', () => {
    const conditions = search.candidateConditions(attributes(['Topic', 'x'], ['a.b', 'y']));
    expect(conditions).toHaveLength(2);
    const [, second] = conditions as { $or: Record<string, { $regex: string }>[] }[];
    expect(second.$or).toHaveLength(4);
    // Regex metacharacters of the key are taken literally.
    expect(second.$or[0]['data.ProfilePreferences.PreferenceAttributes.Key'].$regex).toBe(
      '^\\s*a\\.b\\s*$',
    );
    expect(search.keyQuery(attributes([' TOPIC ', 'x'], ['Lang', 'y']))).toEqual([
      ['pattr:topic'],
      ['pattr:lang'],
    ]);
  });

  it('indexes every attribute key, on inactive contact elements too', () => {
    const data = stored({
      ProfilePreferences: [preference('10', [{ Key: ' Topic ', Value: 'Sports' }])],
      Emails: [
        {
          EmailAddress: 'gone@example.com',
          IsActive: false,
          EmailPreferences: [preference('20', [{ Key: 'Lang', Value: 'EN' }])],
        },
      ],
    });
    expect(new Set(preferenceSearchKeys(data))).toEqual(new Set(['pattr:topic', 'pattr:lang']));
  });
});

/** Preferences become inactive by archiving, not through a body: set it on the stored data. */
function archivedThird(body: Record<string, unknown>): ProfileData {
  const data = stored(body);
  data.ProfilePreferences[2].IsActive = false;
  return data;
}

describe('preference attribute search: matching and the answer', () => {
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

  it('needs one active preference holding every listed attribute', () => {
    expect(search.matches(data, attributes([' TOPIC ', 'news']), everything)).toBe(true);
    expect(search.matches(data, attributes(['Topic', 'News'], ['Lang', 'en']), everything)).toBe(
      true,
    );
    // Both attributes exist, but not on one preference.
    expect(search.matches(data, attributes(['Topic', 'Sport'], ['Lang', 'EN']), everything)).toBe(
      false,
    );
    expect(search.matches(data, attributes(['Topic', 'Deals']), everything)).toBe(false);
  });

  it('matches implied preferences only when the view asks for them', () => {
    expect(search.matches(data, attributes(['Topic', 'Hints']), everything)).toBe(false);
    expect(search.matches(data, attributes(['Topic', 'Hints']), withImplied)).toBe(true);
  });

  it('does not match through a preference of a program outside the scope', () => {
    const sport = attributes(['Topic', 'Sport']);
    expect(search.matches(data, sport, scoped({ programs: ['10'] }))).toBe(false);
    expect(search.matches(data, sport, scoped({ programs: ['11'] }))).toBe(true);
    // A group without access to the preferences area sees no preference.
    expect(search.matches(data, sport, scoped({ preferences: 'none' }))).toBe(false);
  });

  it('answers only the matching preferences, in every container', () => {
    const answer = search.answer!(data, attributes(['Topic', 'News']), everything);
    expect(answer.ProfilePreferences.map((p) => p.ProgramId)).toEqual(['10']);
    expect(answer.Emails[0].EmailPreferences.map((p) => p.ProgramId)).toEqual(['20']);
    expect(answer.Emails[0].EmailAddress).toBe('a@example.com');
  });
});
