import { compareStamps, type StoredPreference } from '@app/profiles';

/*
 * The preference rows (P1 to P13) of a profile merge's precedence tables
 * (docs/profile-merge.md): which of two preferences of the same key the survivor keeps.
 * Asked by the merge through the rule port (PREFERENCE_PROFILE_RULES.mergePrecedence); what
 * counts as a mark (P9: a do-not-contact preference) is said by the module that writes it.
 */

/** PreferenceType of an opt-out (1 is an opt-in; preference.rules.ts checks the values). */
const OPT_OUT = 2;

/** The preference kept of the survivor's `s` and the absorbed profile's `a` (same key). */
export function decidePreference(
  s: StoredPreference | undefined,
  a: StoredPreference | undefined,
  marked: (preference: StoredPreference) => boolean,
): StoredPreference | undefined {
  const sHeld = s && s.IsActive !== false ? s : undefined;
  const aHeld = a && a.IsActive !== false ? a : undefined;
  if (!sHeld && !aHeld) return s ?? a;
  if (!sHeld) return aHeld; // P1, P10 (an archived preference counts as none)
  if (!aHeld) return sHeld; // P2, P11
  const sMark = marked(sHeld);
  const aMark = marked(aHeld);
  if (sMark && !aMark) return sHeld; // P9
  if (aMark && !sMark) return aHeld; // P9
  const order = compareStamps(sHeld.LastModifiedDate, aHeld.LastModifiedDate);
  if (order === 0) {
    // P12: equal stamps: an opt-out wins; otherwise the survivor's.
    return isOptOut(aHeld) && !isOptOut(sHeld) ? aHeld : sHeld;
  }
  return order > 0 ? sHeld : aHeld; // P3 to P8, P13: the more recent decision
}

function isOptOut(preference: StoredPreference): boolean {
  return preference.PreferenceType === OPT_OUT;
}
