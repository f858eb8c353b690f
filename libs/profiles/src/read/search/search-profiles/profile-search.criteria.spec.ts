import {
  scopedView as scoped,
  storedData as stored,
  UNSCOPED_VIEW as everything,
} from '../../../testing';
import {
  candidateConditions,
  profileMatches,
  type SearchCriteria,
} from './profile-search.criteria';

describe('candidateConditions', () => {
  it('looks emails and custom fields up by their normalised keys', () => {
    expect(candidateConditions({ kind: 'email', emailAddress: '  Jane@Example.COM ' })).toEqual([
      { 'data.Emails.Key': 'jane@example.com' },
    ]);
    expect(
      candidateConditions({ kind: 'customFields', fields: [{ Name: ' My  Tier', Value: 'x' }] }),
    ).toEqual([{ 'data.CustomFields.Key': 'my tier' }]);
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
  const byTier: SearchCriteria = {
    kind: 'customFields',
    fields: [{ Name: 'TIER', Value: 'gold' }],
  };
  const bySelect: SearchCriteria = {
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

describe('profileMatches: an inactive profile', () => {
  it('never matches', () => {
    const data = stored({ CustomFields: [{ Name: 'Tier', Value: 'Gold' }] });
    const byTier: SearchCriteria = {
      kind: 'customFields',
      fields: [{ Name: 'Tier', Value: 'Gold' }],
    };
    expect(profileMatches(data, byTier, everything)).toBe(true);
    expect(profileMatches({ ...data, IsActive: false }, byTier, everything)).toBe(false);
  });
});
