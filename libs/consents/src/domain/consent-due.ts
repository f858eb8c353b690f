import type { ProfileData, StoredConsent, WriteContext } from '@app/profiles';
import { activeConsentLists, changeConsents } from './consent-containers';

/*
 * Expiry of consents on profiles (docs/preferences-consents.md): the worker's expiry job
 * queues one `expire` write per profile with something due; applying it marks every due
 * consent `Expired: true` (kept, not deleted) as of the write's `AsOf`, so a duplicate
 * write (a re-run, a redelivery) finds nothing left.
 */

/** The moment an ExpirationDate names, or null when it names none (absent, unparsable). */
export function expirationTime(value: unknown): number | null {
  if (typeof value !== 'string' || !value) return null;
  const time = Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

/** An active consent past its date and not yet marked. */
export function consentIsDue(consent: StoredConsent, asOf: number): boolean {
  if (consent.IsActive === false || consent.Expired === true) return false;
  const time = expirationTime(consent.ExpirationDate);
  return time !== null && time <= asOf;
}

/**
 * The data with every due consent marked `Expired: true`, on the profile and on its active
 * contact elements (inactive ones are left as stored), and how many; the same object when
 * none was due.
 */
export function expireConsents(
  data: ProfileData,
  asOf: number,
  ctx: WriteContext,
): { data: ProfileData; count: number } {
  return changeConsents(data, (consent) =>
    consentIsDue(consent, asOf)
      ? {
          ...consent,
          Expired: true,
          Edited: { ...consent.Edited, ModifiedDate: ctx.at, ModifiedBy: ctx.userId },
        }
      : undefined,
  );
}

/** The earliest ExpirationDate (ms) of an active consent not yet expired, or null. */
export function nextConsentDue(data: ProfileData): number | null {
  let earliest: number | null = null;
  for (const list of activeConsentLists(data)) {
    for (const consent of list ?? []) {
      if (consent.IsActive === false || consent.Expired === true) continue;
      const time = expirationTime(consent.ExpirationDate);
      if (time !== null && (earliest === null || time < earliest)) earliest = time;
    }
  }
  return earliest;
}
