import { tenantKey } from '@app/shared';
import { renameGroup } from './group-rename';
import type { DeepPartial } from '../testing';
import type { ProfileData, StoredGroup } from './profile-data.schema';
import { applyProfileWrite } from './apply-profile-write';
import { transitionProfile } from './profile-transition';
import { ProfileRules } from './profile-rules';
import type { Profile } from './profile.schema';
import type { ProfileWrite } from './profile-write.schema';
import { PROFILE_WIRE_FORMAT } from '../wire/profile-wire-format';

const NO_RULES = new ProfileRules([]);

const t1 = { at: '2026-01-01T00:00:00.000Z', userId: 'alice' };
const t2 = { at: '2026-02-01T00:00:00.000Z', userId: 'bob' };

function withGroups(groups: DeepPartial<StoredGroup>[]): ProfileData {
  return applyProfileWrite(
    undefined,
    { CustomerType: 'Customer', Groups: groups },
    'overwrite',
    t1,
  );
}

const rename = (OldGroupName: string, NewGroupName: string) => ({
  GroupType: 'household',
  OldGroupName,
  NewGroupName,
});

/** An active primary Household membership created at t1 and renamed at t2. */
const renamedPrimary = (GroupName: string, Key: string) => ({
  GroupType: 'Household',
  GroupName,
  Key,
  IsPrimary: true,
  IsActive: true,
  Edited: { CreateDate: t1.at, CreatedBy: 'alice', ModifiedDate: t2.at, ModifiedBy: 'bob' },
});

describe('renameGroup', () => {
  it('renames the membership, keeping IsPrimary and IsActive, and stamps Edited', () => {
    const data = withGroups([
      { GroupType: 'Household', GroupName: 'Smith', IsPrimary: true },
      { GroupType: 'Household', GroupName: 'Other' },
    ]);
    const result = renameGroup(data, rename(' SMITH ', 'Smith-Jones'), t2);
    expect(result.Groups).toEqual([
      renamedPrimary('Smith-Jones', 'household|smith-jones'),
      data.Groups[1],
    ]);
    expect(result.Edited).toEqual({
      CreateDate: t1.at,
      CreatedBy: 'alice',
      ModifiedDate: t2.at,
      ModifiedBy: 'bob',
    });
  });

  it('renames an inactive membership too, leaving it inactive', () => {
    const data = withGroups([{ GroupType: 'Household', GroupName: 'Smith', IsActive: false }]);
    const [group] = renameGroup(data, rename('smith', 'Jones'), t2).Groups;
    expect(group).toMatchObject({ GroupName: 'Jones', Key: 'household|jones', IsActive: false });
  });

  it('leaves a profile without the old group unchanged', () => {
    const data = withGroups([{ GroupType: 'Household', GroupName: 'Other' }]);
    expect(renameGroup(data, rename('Smith', 'Jones'), t2)).toBe(data);
  });

  it('does not confuse group types', () => {
    const data = withGroups([{ GroupType: 'Team', GroupName: 'Smith' }]);
    expect(renameGroup(data, rename('Smith', 'Jones'), t2)).toBe(data);
  });

  it('merges into a group the profile is already in: one membership, primary if either was', () => {
    const data = withGroups([
      { GroupType: 'Household', GroupName: 'Smith', IsPrimary: true },
      { GroupType: 'Household', GroupName: 'Jones', IsPrimary: false },
    ]);
    const result = renameGroup(data, rename('Smith', 'jones'), t2);
    expect(result.Groups).toEqual([renamedPrimary('Jones', 'household|jones')]);
  });

  it('on a merge, an inactive membership neither activates nor makes primary unless both are inactive', () => {
    const activeTarget = withGroups([
      { GroupType: 'Household', GroupName: 'Smith', IsPrimary: true, IsActive: false },
      { GroupType: 'Household', GroupName: 'Jones' },
    ]);
    expect(renameGroup(activeTarget, rename('Smith', 'Jones'), t2).Groups).toEqual([
      expect.objectContaining({ GroupName: 'Jones', IsActive: true, IsPrimary: false }),
    ]);
    const inactiveTarget = withGroups([
      { GroupType: 'Household', GroupName: 'Smith', IsPrimary: false },
      { GroupType: 'Household', GroupName: 'Jones', IsPrimary: true, IsActive: false },
    ]);
    expect(renameGroup(inactiveTarget, rename('Smith', 'Jones'), t2).Groups).toEqual([
      expect.objectContaining({ GroupName: 'Jones', IsActive: true, IsPrimary: false }),
    ]);
    const bothInactive = withGroups([
      { GroupType: 'Household', GroupName: 'Smith', IsPrimary: true, IsActive: false },
      { GroupType: 'Household', GroupName: 'Jones', IsActive: false },
    ]);
    expect(renameGroup(bothInactive, rename('Smith', 'Jones'), t2).Groups).toEqual([
      expect.objectContaining({ GroupName: 'Jones', IsActive: false, IsPrimary: true }),
    ]);
  });
});

describe('transitionProfile rename-group', () => {
  const write = (seq: number): ProfileWrite => ({
    _id: tenantKey('c', 1, seq),
    clientId: 'c',
    profileId: 1,
    seq,
    kind: 'rename-group',
    body: JSON.stringify(rename('Smith', 'Jones')),
    userId: 'bob',
    acceptedAt: new Date(t2.at),
    status: 'pending',
    attempts: 0,
  });
  const profile = (state: Profile['state'], data?: ProfileData): Profile => ({
    _id: tenantKey('c', 1),
    clientId: 'c',
    profileId: 1,
    state,
    appliedSeq: 1,
    data,
  });
  const vocabulary = {} as never;

  it('applies the rename and advances appliedSeq', () => {
    const data = withGroups([{ GroupType: 'Household', GroupName: 'Smith' }]);
    const next = transitionProfile(
      profile('active', data),
      write(2),
      vocabulary,
      PROFILE_WIRE_FORMAT,
      NO_RULES,
    );
    expect(next.appliedSeq).toBe(2);
    expect(next.data?.Groups.map((g) => g.GroupName)).toEqual(['Jones']);
    expect(next.data?.Groups[0].Edited.ModifiedBy).toBe('bob');
  });

  it('leaves a deleted profile as it is, without failing', () => {
    const next = transitionProfile(
      profile('deleted'),
      write(2),
      vocabulary,
      PROFILE_WIRE_FORMAT,
      NO_RULES,
    );
    expect(next).toMatchObject({ state: 'deleted', appliedSeq: 2, data: undefined });
  });
});
