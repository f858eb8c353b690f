import { groupKey } from './element-rules';
import type { ProfileData, StoredGroup } from './profile-data.schema';

/** The group's key (`groupKey`); stored on every membership, derived for older data. */
export function membershipKey(group: StoredGroup): string {
  return group.Key || groupKey(group.GroupType, group.GroupName);
}

export const isActiveMembership = (group: StoredGroup): boolean => group.IsActive !== false;

/** Whether an active profile holds an active membership of the group `key`. */
export function isActiveMember(data: ProfileData | undefined, key: string): boolean {
  return (
    data !== undefined &&
    data.IsActive !== false &&
    (data.Groups ?? []).some((group) => isActiveMembership(group) && membershipKey(group) === key)
  );
}
