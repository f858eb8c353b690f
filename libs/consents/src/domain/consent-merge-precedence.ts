import { ConsentStatus } from '@app/config';
import { compareStamps, editedStamp, type StoredConsent } from '@app/profiles';

/*
 * The consent rows (K1 to K13) of a profile merge's precedence tables (docs/profile-merge.md):
 * which of two consents of the same type in the same container the survivor keeps. Asked by
 * the merge through the rule port (CONSENT_PROFILE_RULES.mergePrecedence).
 */

/** The consent kept of the survivor's `s` and the absorbed profile's `a` (same type). */
export function decideConsent(
  s: StoredConsent | undefined,
  a: StoredConsent | undefined,
): StoredConsent | undefined {
  const sHeld = s && s.IsActive !== false ? s : undefined;
  const aHeld = a && a.IsActive !== false ? a : undefined;
  if (!sHeld && !aHeld) return s ?? a; // neither in force: the survivor's record, if any
  if (!sHeld) return aHeld; // K1 (an inactive consent counts as none)
  if (!aHeld) return sHeld; // K2
  const sAnswered = isAnswered(sHeld);
  const aAnswered = isAnswered(aHeld);
  if (!sAnswered && aAnswered) return aHeld; // K9
  if (sAnswered && !aAnswered) return sHeld; // K10
  const order = compareStamps(editedStamp(sHeld), editedStamp(aHeld));
  if (order === 0) {
    // K13: equal stamps: a refusal wins; between two of the same kind, the survivor's.
    return isRefusal(aHeld) && !isRefusal(sHeld) ? aHeld : sHeld;
  }
  return order > 0 ? sHeld : aHeld; // K3 to K8, K11, K12: the more recent decision
}

function isAnswered(consent: StoredConsent): boolean {
  return consent.ConsentStatus !== undefined && consent.ConsentStatus !== null
    ? consent.ConsentStatus !== ConsentStatus.NotSet
    : false;
}

function isRefusal(consent: StoredConsent): boolean {
  return (
    consent.ConsentStatus === ConsentStatus.Denied ||
    consent.ConsentStatus === ConsentStatus.Revoked
  );
}
