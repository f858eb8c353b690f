const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a consent given at `consentDate` on a version valid `expirationInDays` days
 * expires (ISO 8601, UTC); undefined when the version does not expire (absent or 0 days)
 * or the date cannot be read. Days are whole 24-hour days from the consent date.
 */
export function consentExpirationDate(
  consentDate: string,
  expirationInDays: number | null | undefined,
): string | undefined {
  if (!expirationInDays || expirationInDays <= 0) return undefined;
  const start = Date.parse(consentDate);
  if (Number.isNaN(start)) return undefined;
  return new Date(start + expirationInDays * DAY_MS).toISOString();
}

/** Whether a consent with this expiration date is expired at `at` (both ISO 8601). */
export function isConsentExpired(expirationDate: string | undefined, at: string): boolean {
  if (!expirationDate) return false;
  const expires = Date.parse(expirationDate);
  return !Number.isNaN(expires) && expires <= Date.parse(at);
}
