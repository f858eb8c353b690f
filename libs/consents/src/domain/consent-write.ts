import { textKey } from '@app/shared';
import { consentExpirationDate, isConsentExpired } from './consent-expiry';

/** The fields of a stored consent these rules read and derive. */
export interface ConsentRecord {
  ConsentVersion?: string;
  ConsentStatus?: number;
  ConsentDate?: string;
  ExpirationDate?: string;
  Expired?: boolean;
  UpdatedVersionPending?: boolean;
  IsActive?: boolean;
}

/** What the rules need of the consent's type: its versions' terms and the latest one. */
export interface ConsentTypeTerms {
  LatestVersion?: string | null;
  Versions: { ConsentVersion: string; ExpirationInDays?: number | null }[];
}

/**
 * A consent as stored after a write named it (or left it untouched), given what was
 * stored before (undefined: a new consent) and the time of the write. Pure.
 *
 * - Omitted ConsentVersion, ConsentStatus, ConsentDate keep the stored values, in a PUT
 *   too (a status only changes by a stated transition). A new consent without a version
 *   gets the type's LatestVersion.
 * - The consent is "written" when it is new (or reactivated), or its status, version or
 *   ConsentDate changed; a restated consent keeps its derived fields (a writer cannot set
 *   Expired or UpdatedVersionPending).
 * - A written consent whose status or version changed, without a new ConsentDate, is
 *   dated `at`.
 * - ExpirationDate: on a version with ExpirationInDays, ConsentDate (or `at`) + those
 *   days, set when the consent is written (a writer's value is ignored). On a version
 *   without days the writer's value is kept; a written consent without one has none (the
 *   old date belonged to the old answer).
 * - Expired is recomputed whenever the consent is written or its ExpirationDate changes:
 *   false, unless that date is already past at `at` (a back-dated ConsentDate).
 * - A written consent on the type's latest version has UpdatedVersionPending false (a
 *   re-consent on the new version clears it); on an older version, true.
 */
export function settleConsent<T extends ConsentRecord>(
  stored: ConsentRecord | undefined,
  written: T,
  type: ConsentTypeTerms | undefined,
  at: string,
): T {
  const consent: T = { ...written };
  // Reactivating a consent starts it afresh, like a new one.
  const fresh = !stored || (stored.IsActive === false && consent.IsActive !== false);
  if (stored) {
    consent.ConsentVersion ??= stored.ConsentVersion;
    consent.ConsentStatus ??= stored.ConsentStatus;
    consent.ConsentDate ??= stored.ConsentDate;
  }
  if (fresh && consent.ConsentVersion == null && type?.LatestVersion) {
    consent.ConsentVersion = type.LatestVersion;
  }
  setOrDelete(consent, 'ConsentVersion', consent.ConsentVersion);
  setOrDelete(consent, 'ConsentStatus', consent.ConsentStatus);
  setOrDelete(consent, 'ConsentDate', consent.ConsentDate);

  const statusChanged = fresh
    ? consent.ConsentStatus !== undefined
    : consent.ConsentStatus !== stored?.ConsentStatus;
  const versionChanged = !fresh && !sameVersion(consent.ConsentVersion, stored?.ConsentVersion);
  const dateSent = consent.ConsentDate !== undefined && consent.ConsentDate !== stored?.ConsentDate;
  const isWritten = fresh || statusChanged || versionChanged || dateSent;

  // A new answer, or an answer on another version, is given now unless dated otherwise.
  if ((statusChanged || versionChanged) && !dateSent) consent.ConsentDate = at;

  const days = type?.Versions.find((v) =>
    sameVersion(v.ConsentVersion, consent.ConsentVersion),
  )?.ExpirationInDays;
  const expirationSent =
    consent.ExpirationDate != null && consent.ExpirationDate !== stored?.ExpirationDate;
  let expiration: string | undefined;
  if (days && days > 0) {
    expiration = isWritten
      ? consentExpirationDate(consent.ConsentDate ?? at, days)
      : stored?.ExpirationDate;
  } else {
    expiration = expirationSent
      ? consent.ExpirationDate
      : isWritten
        ? undefined
        : stored?.ExpirationDate;
  }
  setOrDelete(consent, 'ExpirationDate', expiration);

  if (isWritten || expiration !== stored?.ExpirationDate) {
    consent.Expired = isConsentExpired(expiration, at);
  } else {
    setOrDelete(consent, 'Expired', consent.Expired ?? stored?.Expired);
  }

  const latest = type?.LatestVersion;
  setOrDelete(
    consent,
    'UpdatedVersionPending',
    isWritten && latest && consent.ConsentVersion !== undefined
      ? !sameVersion(consent.ConsentVersion, latest)
      : (consent.UpdatedVersionPending ?? stored?.UpdatedVersionPending),
  );
  return consent;
}

/** Versions compare trimmed and case-insensitively, like the configuration check. */
export function sameVersion(a: string | undefined, b: string | undefined | null): boolean {
  return textKey(a ?? '') === textKey(b ?? '');
}

function setOrDelete<T extends object, K extends keyof T>(target: T, field: K, value: T[K]): void {
  if (value === undefined || value === null) delete target[field];
  else target[field] = value;
}
