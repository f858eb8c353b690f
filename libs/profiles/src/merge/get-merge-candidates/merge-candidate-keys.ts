import { textKey } from '@app/shared';
import type { ProfileData } from '../../domain/profile-data.schema';
import type { SearchCriteria } from '../../read/search/search-profiles/profile-search.criteria';

/*
 * The keys by which two profiles of a client may be one person (issue 33, "Candidates",
 * docs/profile-merge.md): an email address, a phone number, or a first and last name with
 * an address (city and state/province), each normalised as the searches normalise them
 * (textKey; phones by their digits). Only active elements count. Each key carries the
 * search criteria whose key-index lookup finds the profiles holding it: no scan.
 */

export type IdentityKeyKind = 'Email' | 'Phone' | 'NameAndAddress';

export interface IdentityKey {
  kind: IdentityKeyKind;
  /** The normalised value, e.g. `ann@example.com`, `15550100`, `ann|lee|springfield|il`. */
  value: string;
  /** The search that finds the holders of the key (its key query and its exact check). */
  criteria: SearchCriteria;
}

const isActive = (element: { IsActive?: boolean }) => element.IsActive !== false;

/** The identity keys of a profile's data, each once, in a stable order. */
export function identityKeysOf(data: ProfileData | undefined): IdentityKey[] {
  if (!data) return [];
  const keys = new Map<string, IdentityKey>();
  const add = (key: IdentityKey) => keys.set(`${key.kind}:${key.value}`, key);
  for (const email of (data.Emails ?? []).filter(isActive)) {
    const value = email.Key || textKey(email.EmailAddress);
    if (value) add({ kind: 'Email', value, criteria: { kind: 'email', emailAddress: value } });
  }
  for (const phone of (data.PhoneNumbers ?? []).filter(isActive)) {
    const digits = phone.PhoneNumberNumeric;
    if (digits === undefined || digits === null || !Number.isFinite(digits) || digits <= 0)
      continue;
    add({
      kind: 'Phone',
      value: String(digits),
      criteria: { kind: 'phone', digits: String(digits) },
    });
  }
  const firstName = textKey(data.CustomerName?.FirstName);
  const lastName = textKey(data.CustomerName?.LastName);
  if (firstName && lastName) {
    for (const address of (data.Addresses ?? []).filter(isActive)) {
      const city = textKey(address.City);
      if (!city) continue;
      const stateProvince = textKey(address.StateProvince);
      add({
        kind: 'NameAndAddress',
        value: [firstName, lastName, city, stateProvince].join('|'),
        criteria: {
          kind: 'address',
          address: { city, stateProvince },
          partialAddress1: false,
          partialName: false,
          name: { firstName, lastName },
        },
      });
    }
  }
  return [...keys.values()];
}

/** The keys of `subject` that `other` holds too (the exact check of a candidate). */
export function sharedIdentityKeys(
  subject: readonly IdentityKey[],
  other: ProfileData | undefined,
): IdentityKey[] {
  const held = new Set(identityKeysOf(other).map((key) => `${key.kind}:${key.value}`));
  return subject.filter((key) => held.has(`${key.kind}:${key.value}`));
}
