import { isDeepStrictEqual } from 'node:util';
import {
  confirmationIdOf,
  type ConfirmedPreference,
  PROFILE_COLLECTIONS,
  type PreferenceConfirmationExpireWrite,
  type PreferenceConfirmWrite,
  type PreferenceFilter,
  type PreferenceVocabulary,
  preferenceIdKey,
  preferenceKey,
  type ProfileData,
  type StoredEmail,
  type StoredPreference,
  type WriteContext,
} from '@app/profiles';
import { textKey } from '@app/shared';

/*
 * Double opt-in for programs (docs/double-opt-in.md, "Programs"): pure, run by the
 * preference rules in the worker's fold, as the consent hold is by the consent rules (so
 * writes apply in the order of their 202s and a refused write never applies). An opt-in
 * (PreferenceType 1) on an Email filter requiring confirmation, on an email address, is
 * held: the preference keeps its PreferenceType (none when new) and carries a
 * PendingConfirmation mark; the `preference-confirm` write applies the opt-in.
 */

const OPT_IN = 1;
const OPT_OUT = 2;

/** The filter of a preference (filter ids are unique per client), if it names one. */
function filterOf(
  preference: StoredPreference,
  vocabulary: PreferenceVocabulary,
): PreferenceFilter | undefined {
  const id = Number(preferenceIdKey(preference.FilterId));
  return Number.isInteger(id) ? vocabulary.filter(id) : undefined;
}

/** What a confirmation of this preference is about: the confirmation id's subject. */
function subjectOf(preference: StoredPreference): string {
  return `preference|${preferenceKey(preference)}`;
}

/**
 * The preference of an email address after a write settled it: what a writer cannot set
 * (PendingConfirmation, Confirmation) comes from the stored preference; a new opt-in on a
 * filter requiring confirmation is held (the other fields the write sends apply, the opt-in
 * waits); an opt-out or a deactivation cancels a pending one. `carried`: the write may carry
 * a confirmation (a merge's absorbed profile): an opt-in with new evidence applies.
 */
export function holdOptIn(
  stored: StoredPreference | undefined,
  settled: StoredPreference,
  requiresConfirmation: boolean,
  emailKey: string,
  at: string,
  carried = false,
): StoredPreference {
  const preference: StoredPreference = { ...settled };
  const storedActive = stored && stored.IsActive !== false ? stored : undefined;
  const active = preference.IsActive !== false;
  if (
    carried &&
    active &&
    preference.PreferenceType === OPT_IN &&
    settled.Confirmation &&
    !isDeepStrictEqual(settled.Confirmation, stored?.Confirmation)
  ) {
    // Confirmed elsewhere (the absorbed profile's link): its evidence travels with it.
    delete preference.PendingConfirmation;
    return preference;
  }
  setOrDelete(preference, 'PendingConfirmation', storedActive?.PendingConfirmation);
  setOrDelete(preference, 'Confirmation', stored?.Confirmation);
  if (!requiresConfirmation) return preference;

  const optingIn =
    active && preference.PreferenceType === OPT_IN && storedActive?.PreferenceType !== OPT_IN;
  if (optingIn) {
    const pending = storedActive?.PendingConfirmation ?? {
      Id: confirmationIdOf(at, emailKey, subjectOf(preference)),
      RequestedDate: at,
    };
    // The opt-in waits: the preference keeps its type and expiry (none when new).
    setOrDelete(preference, 'PreferenceType', storedActive?.PreferenceType);
    setOrDelete(preference, 'ExpirationDate', storedActive?.ExpirationDate);
    setOrDelete(preference, 'PreferenceStatus', storedActive?.PreferenceStatus);
    preference.PendingConfirmation = pending;
    return preference;
  }
  const cancelled = !active || preference.PreferenceType === OPT_OUT;
  if (cancelled) delete preference.PendingConfirmation;
  return preference;
}

function setOrDelete<K extends keyof StoredPreference>(
  target: StoredPreference,
  field: K,
  value: StoredPreference[K] | null | undefined,
): void {
  if (value === undefined || value === null) delete target[field];
  else target[field] = value;
}

/**
 * The preference rules' hold over every email address of the data (the derive step after
 * preferenceDataRule): each EmailPreferences preference through holdOptIn, against the
 * stored preference of the same address and key.
 */
export function holdUnconfirmedOptIns(
  before: ProfileData | undefined,
  after: ProfileData,
  vocabulary: PreferenceVocabulary,
  ctx: WriteContext,
): ProfileData {
  if (!Array.isArray(after.Emails)) return after;
  const rule = PROFILE_COLLECTIONS.Emails;
  const Emails = after.Emails.map((email): StoredEmail => {
    if (!Array.isArray(email.EmailPreferences)) return email;
    const storedEmail = (before?.Emails ?? []).find(
      (candidate) => rule.key(candidate) === rule.key(email),
    );
    const emailKey = textKey(email.EmailAddress);
    return {
      ...email,
      EmailPreferences: email.EmailPreferences.map((preference) =>
        holdOptIn(
          (storedEmail?.EmailPreferences ?? []).find(
            (candidate) => preferenceKey(candidate) === preferenceKey(preference),
          ),
          preference,
          filterOf(preference, vocabulary)?.RequiresConfirmation === true,
          emailKey,
          ctx.at,
          ctx.confirmationsCarried === true,
        ),
      ),
    };
  });
  return { ...after, Emails };
}

/** Applies `change` to the active preference waiting for this confirmation, if any. */
function onPending(
  data: ProfileData,
  write: { EmailAddress: string; Preference: ConfirmedPreference; ConfirmationId: string },
  change: (preference: StoredPreference) => StoredPreference,
): ProfileData | undefined {
  const emailKey = textKey(write.EmailAddress);
  const key = preferenceKey(write.Preference);
  let applied = false;
  const Emails = (data.Emails ?? []).map((email) => {
    if (email.IsActive === false || textKey(email.EmailAddress) !== emailKey) return email;
    const EmailPreferences = (email.EmailPreferences ?? []).map((preference) => {
      if (
        preference.IsActive === false ||
        preferenceKey(preference) !== key ||
        preference.PendingConfirmation?.Id !== write.ConfirmationId
      )
        return preference;
      applied = true;
      return change(preference);
    });
    return { ...email, EmailPreferences };
  });
  return applied ? { ...data, Emails } : undefined;
}

/**
 * The `preference-confirm` write: the held opt-in applied (PreferenceType 1, Active, its
 * ExpirationDate from `expiresAt`), with its evidence; or undefined (nothing changes) when
 * the preference no longer waits for this confirmation (used, cancelled, the address
 * removed): a link applies at most once.
 */
export function applyOptInConfirmation(
  data: ProfileData,
  write: PreferenceConfirmWrite,
  expiresAt: (preference: StoredPreference) => string | undefined,
  ctx: WriteContext,
): ProfileData | undefined {
  return onPending(data, write, (preference) => {
    const confirmed: StoredPreference = {
      ...preference,
      PreferenceType: OPT_IN,
      PreferenceStatus: 'Active',
      LastModifiedDate: ctx.at,
      Confirmation: write.Evidence,
    };
    delete confirmed.PendingConfirmation;
    setOrDelete(confirmed, 'ExpirationDate', expiresAt(confirmed));
    return confirmed;
  });
}

/**
 * The `preference-confirmation-expire` write: the preference's mark of this confirmation
 * cleared, the preference otherwise as it was (the opt-in never applied); or undefined when
 * it no longer waits for it (confirmed, cancelled or asked again meanwhile).
 */
export function expireOptInConfirmation(
  data: ProfileData,
  write: PreferenceConfirmationExpireWrite,
  ctx: WriteContext,
): ProfileData | undefined {
  return onPending(data, write, (preference) => {
    const expired: StoredPreference = { ...preference, LastModifiedDate: ctx.at };
    delete expired.PendingConfirmation;
    return expired;
  });
}
