import { groupKey } from './element-rules';
import { isActiveMembership, membershipKey } from './group-membership';
import { stampEdited } from './apply-profile-write';
import type { ProfileData, StoredGroup } from './profile-data.schema';

/** The body of a queued `rename-group` write (POST /{clientId}/Groups/{groupType}/Rename). */
export interface RenameGroupWrite {
  GroupType: string;
  OldGroupName: string;
  NewGroupName: string;
}

/**
 * The profile's groups after a rename of (type, old name) to (type, new name). The old
 * membership takes the new name, keeping IsPrimary and IsActive; when the profile is
 * already in the new group, the two memberships become one (the target's): it is active
 * if either was, and primary if either counted membership was (the active ones, or both
 * when neither is active). A profile without the old group is returned unchanged.
 */
export function renameGroup(
  data: ProfileData,
  rename: RenameGroupWrite,
  ctx: { at: string; userId: string },
): ProfileData {
  const oldKey = groupKey(rename.GroupType, rename.OldGroupName);
  const newKey = groupKey(rename.GroupType, rename.NewGroupName);
  const groups = data.Groups ?? [];
  const old = groups.find((group) => membershipKey(group) === oldKey);
  if (!old || oldKey === newKey) return data;

  const target = groups.find((group) => membershipKey(group) === newKey);
  let Groups: StoredGroup[];
  if (target) {
    const counted = [target, old].filter(isActiveMembership);
    const merged: StoredGroup = {
      ...target,
      Key: newKey,
      IsActive: isActiveMembership(target) || isActiveMembership(old),
      IsPrimary: (counted.length ? counted : [target, old]).some((g) => g.IsPrimary === true),
      Edited: stampEdited(target.Edited, ctx),
    };
    Groups = groups.filter((group) => group !== old).map((g) => (g === target ? merged : g));
  } else {
    const renamed: StoredGroup = {
      ...old,
      GroupName: rename.NewGroupName,
      Key: newKey,
      Edited: stampEdited(old.Edited, ctx),
    };
    Groups = groups.map((group) => (group === old ? renamed : group));
  }
  return { ...data, Groups, Edited: stampEdited(data.Edited, ctx) };
}
