import { textKey } from '@app/shared';
import type { ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import type { WriteContext } from './profile-merge';

/*
 * Expiry of consents and preferences (docs/preferences-consents.md): the body of the system write `expire`
 * and the pure step that applies it. The worker's consent-expiry job finds profiles with
 * something due and queues one `expire` write each; applying the write marks what is due
 * as of its `AsOf`, so a duplicate write (a re-run, a redelivery) finds nothing left.
 */

/** Body of an `expire` write: the time (ISO 8601) the job ran as. */
export interface ExpireWrite {
  AsOf: string;
}

export interface ExpiryCounts {
  consents: number;
  preferences: number;
}

/** The moment an ExpirationDate names, or null when it names none (absent, unparsable). */
export function expirationTime(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

function isDue(expirationDate: unknown, asOf: number): boolean {
  const time = expirationTime(expirationDate);
  return time !== null && time <= asOf;
}

/** An active consent past its date and not yet marked. */
export function consentIsDue(consent: StoredConsent, asOf: number): boolean {
  return (
    consent.IsActive !== false && consent.Expired !== true && isDue(consent.ExpirationDate, asOf)
  );
}

/** An active preference (status Active, or none given) past its date. */
export function preferenceIsDue(preference: StoredPreference, asOf: number): boolean {
  const status = textKey(preference.PreferenceStatus);
  return (
    preference.IsActive !== false &&
    (status === '' || status === 'active') &&
    isDue(preference.ExpirationDate, asOf)
  );
}

/**
 * The profile with every due consent marked `Expired: true` and every due preference
 * `PreferenceStatus: 'Expired'` (kept, not deleted), on the profile and on its active
 * contact elements; inactive elements are left as stored. Unchanged data is returned as
 * the same object, so a write that finds nothing due changes nothing (not even Edited).
 */
export function expireProfileData(
  data: ProfileData,
  asOfIso: string,
  ctx: WriteContext,
): { data: ProfileData; counts: ExpiryCounts } {
  const asOf = expirationTime(asOfIso);
  const counts: ExpiryCounts = { consents: 0, preferences: 0 };
  if (asOf === null) return { data, counts };

  const consents = (list: StoredConsent[] | undefined): StoredConsent[] =>
    (list ?? []).map((consent) => {
      if (!consentIsDue(consent, asOf)) return consent;
      counts.consents++;
      return {
        ...consent,
        Expired: true,
        Edited: { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId },
      };
    });
  const preferences = (list: StoredPreference[] | undefined): StoredPreference[] =>
    (list ?? []).map((preference) => {
      if (!preferenceIsDue(preference, asOf)) return preference;
      counts.preferences++;
      return { ...preference, PreferenceStatus: 'Expired', LastModifiedDate: ctx.at };
    });

  const next: ProfileData = {
    ...data,
    Consents: consents(data.Consents),
    ProfilePreferences: preferences(data.ProfilePreferences),
    Emails: (data.Emails ?? []).map((email) =>
      email.IsActive === false
        ? email
        : {
            ...email,
            Consents: consents(email.Consents),
            EmailPreferences: preferences(email.EmailPreferences),
          },
    ),
    PhoneNumbers: (data.PhoneNumbers ?? []).map((phone) =>
      phone.IsActive === false
        ? phone
        : {
            ...phone,
            Consents: consents(phone.Consents),
            PhonePreferences: preferences(phone.PhonePreferences),
          },
    ),
    Addresses: (data.Addresses ?? []).map((address) =>
      address.IsActive === false
        ? address
        : {
            ...address,
            Consents: consents(address.Consents),
            AddressPreferences: preferences(address.AddressPreferences),
          },
    ),
  };
  if (!counts.consents && !counts.preferences) return { data, counts };
  next.Edited = { ...data.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId };
  return { data: next, counts };
}

/**
 * The earliest moment something of the profile becomes due (an active consent not yet
 * expired, an active preference, on the profile or an active contact element), or
 * undefined when nothing has a date. The worker stores it with every save
 * (`Profile.nextExpiryAt`), and the expiry job asks only for profiles whose moment has
 * come, so a profile whose items already expired is not read again.
 */
export function nextExpiry(data: ProfileData | undefined): Date | undefined {
  if (!data || data.IsActive === false) return undefined;
  let earliest = Infinity;
  const consider = (time: number | null) => {
    if (time !== null && time < earliest) earliest = time;
  };
  const consents = (list: StoredConsent[] | undefined) =>
    (list ?? [])
      .filter((consent) => consent.IsActive !== false && consent.Expired !== true)
      .forEach((consent) => consider(expirationTime(consent.ExpirationDate)));
  const preferences = (list: StoredPreference[] | undefined) =>
    (list ?? [])
      .filter((preference) => preferenceIsDue(preference, Infinity))
      .forEach((preference) => consider(expirationTime(preference.ExpirationDate)));
  consents(data.Consents);
  preferences(data.ProfilePreferences);
  for (const email of (data.Emails ?? []).filter((e) => e.IsActive !== false)) {
    consents(email.Consents);
    preferences(email.EmailPreferences);
  }
  for (const phone of (data.PhoneNumbers ?? []).filter((p) => p.IsActive !== false)) {
    consents(phone.Consents);
    preferences(phone.PhonePreferences);
  }
  for (const address of (data.Addresses ?? []).filter((a) => a.IsActive !== false)) {
    consents(address.Consents);
    preferences(address.AddressPreferences);
  }
  return earliest === Infinity ? undefined : new Date(earliest);
}
