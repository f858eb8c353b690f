import { ConsentStatus } from '@app/config';
import { compareStamps, editedStamp, type StoredConsent } from '@app/profiles';

/*
 * The consent rows (K1 to K13) of a profile merge's precedence tables (docs/profile-merge.md):
 * which of two consents of the same type in the same container the survivor keeps. Asked by
 * the merge through the rule port (CONSENT_PROFILE_RULES.mergePrecedence).
 */

/**
 * The consent kept of the survivor's `s` and the absorbed profile's `a` (same type), with
 * the absorbed profile's pending confirmation (double opt-in) when the survivor takes it
 * over: only when the survivor has no state of its own for the consent (none, or NotSet
 * without a pending confirmation of its own), so the person's link still confirms, on the
 * survivor. Otherwise the survivor's answer (or its own request) stands and the absorbed
 * request is not kept: the merge records it Cancelled (docs/double-opt-in.md, "Merges").
 */
export function decideConsent(
  s: StoredConsent | undefined,
  a: StoredConsent | undefined,
): StoredConsent | undefined {
  const kept = decideStatus(s, a);
  const sHeld = s && s.IsActive !== false ? s : undefined;
  const request = a && a.IsActive !== false ? a.PendingConfirmation : undefined;
  if (!kept || !request) return kept;
  const sHasState = sHeld !== undefined && (isAnswered(sHeld) || !!sHeld.PendingConfirmation);
  if (!sHasState) return { ...kept, PendingConfirmation: request };
  if (kept.PendingConfirmation?.Id !== request.Id) return kept;
  const withoutRequest: StoredConsent = { ...kept };
  delete withoutRequest.PendingConfirmation;
  return withoutRequest;
}

/** K1 to K13: which consent's decision the survivor keeps. */
function decideStatus(
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
