import type { ProfileData, StoredConsent } from '@app/profiles';

/**
 * Every consent of the profile and of its active contact elements passed through `change`
 * (undefined: left as it is); inactive contact elements are left as stored. The same data
 * object when nothing changed, so a repeated system write changes nothing.
 */
export function changeConsents(
  data: ProfileData,
  change: (consent: StoredConsent) => StoredConsent | undefined,
): { data: ProfileData; count: number } {
  let count = 0;
  const each = (list: StoredConsent[] | undefined): StoredConsent[] =>
    (list ?? []).map((consent) => {
      const changed = change(consent);
      if (!changed) return consent;
      count++;
      return changed;
    });
  const onActive = <T extends { IsActive?: boolean; Consents?: StoredConsent[] }>(element: T) =>
    element.IsActive === false ? element : { ...element, Consents: each(element.Consents) };
  const next: ProfileData = {
    ...data,
    Consents: each(data.Consents),
    Emails: (data.Emails ?? []).map(onActive),
    PhoneNumbers: (data.PhoneNumbers ?? []).map(onActive),
    Addresses: (data.Addresses ?? []).map(onActive),
  };
  return count ? { data: next, count } : { data, count };
}

/** The consents of the profile and of its active contact elements. */
export function activeConsentLists(data: ProfileData): (StoredConsent[] | undefined)[] {
  return [
    data.Consents,
    ...[...(data.Emails ?? []), ...(data.PhoneNumbers ?? []), ...(data.Addresses ?? [])]
      .filter((element) => element.IsActive !== false)
      .map((element) => element.Consents),
  ];
}
