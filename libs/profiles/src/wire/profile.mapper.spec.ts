import type { ProfileData, StoredPreference } from '../domain/profile-data.schema';
import { FULL_VIEW, viewKey } from '../domain/profile-view';
import { toProfileDto } from './profile.mapper';

const preference = (FilterId: string, IsActive: boolean) =>
  ({
    ProgramId: '1',
    ChannelId: 'Email',
    FilterId,
    PreferenceType: 1,
    IsActive,
    ...(IsActive ? {} : { PreferenceAttributes: [{ Key: '$Reason_Code', Value: 'Moved' }] }),
  }) as StoredPreference;

const data = {
  IsActive: true,
  CustomerType: 'Customer',
  ProfilePreferences: [preference('10', true), preference('11', false)],
} as unknown as ProfileData;

describe('toProfileDto and archived preferences', () => {
  it('a retrieval shows active preferences only, without IsActive', () => {
    const dto = toProfileDto(1, data, false, FULL_VIEW);
    expect(dto.ProfilePreferences?.map((p) => [p.FilterId, p.IsActive])).toEqual([
      ['10', undefined],
    ]);
  });

  it('an archived view (a bulk export) adds the inactive ones, marked IsActive false', () => {
    const dto = toProfileDto(1, data, false, { ...FULL_VIEW, archived: true });
    expect(dto.ProfilePreferences?.map((p) => [p.FilterId, p.IsActive])).toEqual([
      ['10', undefined],
      ['11', false],
    ]);
    expect(dto.ProfilePreferences?.[1].PreferenceAttributes).toEqual([
      { Key: '$Reason_Code', Value: 'Moved' },
    ]);
  });

  it('the two views have different cache keys', () => {
    expect(viewKey({ ...FULL_VIEW, archived: true })).not.toBe(viewKey(FULL_VIEW));
  });
});
