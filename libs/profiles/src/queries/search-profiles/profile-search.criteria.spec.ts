import { applyProfileWrite } from '../../domain/profile-merge';
import type { ProfileData } from '../../domain/profile-data.schema';
import { type CallerScope, normaliseScope, type ProfileView } from '../../domain/profile-view';
import {
  candidateConditions,
  profileMatches,
  type SearchCriteria,
} from './profile-search.criteria';

const stamp = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };

/** Stored data as the worker builds it (normalised keys derived). */
function stored(body: Record<string, unknown>): ProfileData {
  return applyProfileWrite(undefined, { CustomerType: 'Customer', ...body }, 'overwrite', stamp);
}

const everything: ProfileView = { implied: false };
/** A restricted user group's view: the listed names only, full access to both areas. */
const scoped = (lists: Partial<CallerScope>): ProfileView => ({
  implied: false,
  scope: normaliseScope({ consents: 'write', preferences: 'write', ...lists }),
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
