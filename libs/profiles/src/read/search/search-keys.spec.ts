import type { ProfileData } from '../../domain/profile-data.schema';
import { ProfileRules } from '../../domain/profile-rules';
import { hasTag, keyQueryOf, nameGrams, searchKeysOf } from './search-keys';

const data = {
  CustomerName: { FirstName: ' Ann ', LastName: "O'Brien" },
  Emails: [{ EmailAddress: 'Ann@Example.com', Key: 'ann@example.com', IsActive: false }],
  PhoneNumbers: [{ PhoneNumber: '+1 (555) 010-2030', PhoneNumberNumeric: 15550102030 }],
  Addresses: [{ City: 'Springfield', StateProvince: 'IL' }],
  CustomFields: [{ Name: 'Colors', Key: 'colors', Value: 'Red::Blue' }],
  ProfileTags: [{ Name: 'VIP', Key: 'vip' }],
  Consents: [{ ConsentType: 'Terms', Key: 'terms' }],
  ProfilePreferences: [{ PreferenceAttributes: [{ Key: ' Topic ', Value: 'Sports' }] }],
  Groups: [{ GroupType: 'Household', GroupName: 'Smith', Key: 'household|smith' }],
  AlternateIds: [{ AlternateIdType: 'CRM', AlternateId: 'X1', Key: 'crm|x1', IsActive: false }],
} as unknown as ProfileData;

/** A rule module's keys are added to the profile's own. */
const rules = new ProfileRules([
  { name: 'fake', searchKeys: (stored) => (stored.Consents ?? []).map((c) => `fake:${c.Key}`) },
]);

describe('search keys', () => {
  it('derives a key for everything a search looks up, inactive elements included', () => {
    const keys = searchKeysOf(data, rules);
    for (const key of [
      'first:ann',
      "last:o'brien",
      'last~bri',
      'email:ann@example.com',
      'phone:15550102030',
      'city:springfield|il',
      'cf:colors=red::blue',
      'cf:colors=red',
      'cf:colors=blue',
      'tag:vip',
      'fake:terms',
      'group:household|smith',
      'altid:crm|x1',
    ]) {
      expect(keys).toContain(key);
    }
    expect(searchKeysOf(undefined, rules).size).toBe(0);
    expect(hasTag(data, 'vip')).toBe(true);
  });

  it('asks every search for keys its matches must hold', () => {
    const keys = searchKeysOf(data, rules);
    const holds = (query: string[][]) => query.every((group) => group.some((k) => keys.has(k)));
    expect(holds(keyQueryOf({ kind: 'email', emailAddress: ' ANN@example.com' }))).toBe(true);
    expect(holds(keyQueryOf({ kind: 'phone', digits: '15550102030' }))).toBe(true);
    expect(
      holds(
        keyQueryOf({ kind: 'name', partial: true, name: { firstName: 'n', lastName: 'brie' } }),
      ),
    ).toBe(true);
    expect(
      holds(
        keyQueryOf({
          kind: 'selectList',
          fields: [{ OperatorId: 2, Name: 'colors', Values: ['blue', 'red'] }],
        }),
      ),
    ).toBe(true);
    expect(
      holds(
        keyQueryOf({
          kind: 'selectList',
          fields: [{ OperatorId: 3, Name: 'colors', Values: ['green', 'red'] }],
        }),
      ),
    ).toBe(true);
    expect(holds(keyQueryOf({ kind: 'tags', tags: ['VIP', 'other'] }))).toBe(false);
  });

  it('a partial name of single characters names no key', () => {
    expect(keyQueryOf({ kind: 'name', partial: true, name: { firstName: 'a' } })).toEqual([]);
    expect(nameGrams('abcd')).toEqual(['ab', 'bc', 'cd', 'abc', 'bcd']);
  });
});
