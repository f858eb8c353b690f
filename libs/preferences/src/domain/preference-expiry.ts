import { type ProfileData, type StoredPreference, type WriteContext } from '@app/profiles';
import { textKey } from '@app/shared';

/*
 * Expiry of preferences (docs/preferences-consents.md): a preference past its
 * ExpirationDate gets `PreferenceStatus: 'Expired'` (kept, not deleted) when the profile's
 * `expire` write applies, on the profile and on its active contact elements.
 */

/** The moment an ExpirationDate names, or null when it names none (absent, unparsable). */
function expirationTime(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** An active preference (status Active, or none given) past its date. */
export function preferenceIsDue(preference: StoredPreference, asOf: number): boolean {
  const status = textKey(preference.PreferenceStatus);
  if (preference.IsActive === false || (status !== '' && status !== 'active')) return false;
  const time = expirationTime(preference.ExpirationDate);
  return time !== null && time <= asOf;
}

/** Every preference container of the profile and of its active contact elements. */
function containers(data: ProfileData): (StoredPreference[] | undefined)[] {
  return [
    data.ProfilePreferences,
    ...(data.Emails ?? []).filter((e) => e.IsActive !== false).map((e) => e.EmailPreferences),
    ...(data.PhoneNumbers ?? []).filter((p) => p.IsActive !== false).map((p) => p.PhonePreferences),
    ...(data.Addresses ?? []).filter((a) => a.IsActive !== false).map((a) => a.AddressPreferences),
  ];
}

/**
 * The data with every due preference marked Expired, and how many; the same object when
 * none was due. Inactive contact elements are left as stored.
 */
export function expirePreferences(
  data: ProfileData,
  asOf: number,
  ctx: WriteContext,
): { data: ProfileData; count: number } {
  let count = 0;
  const expire = (list: StoredPreference[] | undefined): StoredPreference[] =>
    (list ?? []).map((preference) => {
      if (!preferenceIsDue(preference, asOf)) return preference;
      count++;
      return { ...preference, PreferenceStatus: 'Expired', LastModifiedDate: ctx.at };
    });
  const activeOnly = <T extends { IsActive?: boolean }>(element: T, update: (e: T) => T) =>
    element.IsActive === false ? element : update(element);
  const next: ProfileData = {
    ...data,
    ProfilePreferences: expire(data.ProfilePreferences),
    Emails: (data.Emails ?? []).map((email) =>
      activeOnly(email, (e) => ({ ...e, EmailPreferences: expire(e.EmailPreferences) })),
    ),
    PhoneNumbers: (data.PhoneNumbers ?? []).map((phone) =>
      activeOnly(phone, (p) => ({ ...p, PhonePreferences: expire(p.PhonePreferences) })),
    ),
    Addresses: (data.Addresses ?? []).map((address) =>
      activeOnly(address, (a) => ({ ...a, AddressPreferences: expire(a.AddressPreferences) })),
    ),
  };
  return count ? { data: next, count } : { data, count };
}

/** The earliest ExpirationDate (ms) of an active, unexpired preference, or null. */
export function nextPreferenceDue(data: ProfileData): number | null {
  let earliest: number | null = null;
  for (const list of containers(data)) {
    for (const preference of list ?? []) {
      if (!preferenceIsDue(preference, Infinity)) continue;
      const time = expirationTime(preference.ExpirationDate)!;
      if (earliest === null || time < earliest) earliest = time;
    }
  }
  return earliest;
}
