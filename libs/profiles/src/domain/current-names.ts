import { textKey } from '@app/shared';
import type { StoredConsentAssociation } from './profile-data.schema';
import type { ContactList } from './profile-history.schema';
import {
  type BodyOf,
  type ConsentBody,
  type ContactBody,
  fieldOf,
  type PreferenceBody,
  setField,
} from './profile-shape';

/** What renaming stored references needs of the client's configuration. */
export interface CurrentNames {
  /** Whether some consent type has a former name (nothing to rename otherwise). */
  readonly renamedConsentTypes: boolean;
  /** The current name of the consent type called `name` now or before a rename. */
  consentTypeName(name: string): string | undefined;
}

const CONTACT_LISTS: [list: ContactList, preferences: string][] = [
  ['Emails', 'EmailPreferences'],
  ['PhoneNumbers', 'PhonePreferences'],
  ['Addresses', 'AddressPreferences'],
];

/**
 * The profile data (or a write's body) with every consent type it names by a former name
 * named by its current one: profile and contact-element consents, and the consent
 * associations of preferences; a consent's `Key` follows its type. Stored consents keep the
 * name they were written with until their profile's next write, and a body may have been
 * accepted before a rename: consents are matched, checked and shown under the current name
 * once both sides pass through here. Returns `data` itself when nothing is renamed; never
 * changes it.
 */
export function withCurrentNames<T extends object>(data: T, names: CurrentNames): T {
  if (!names.renamedConsentTypes) return data;
  let result: T | undefined;
  const set = (field: string, value: unknown) => {
    result ??= { ...data };
    setField(result, field, value);
  };

  const consents = renamedConsents(fieldOf(data, 'Consents'), names);
  if (consents) set('Consents', consents);
  const preferences = renamedPreferences(fieldOf(data, 'ProfilePreferences'), names);
  if (preferences) set('ProfilePreferences', preferences);
  for (const [list, preferenceList] of CONTACT_LISTS) {
    const elements = mapChanged<ContactBody>(fieldOf(data, list), (element) => {
      const consents = renamedConsents(element.Consents, names);
      const preferences = renamedPreferences(fieldOf(element, preferenceList), names);
      if (!consents && !preferences) return undefined;
      return {
        ...element,
        ...(consents ? { Consents: consents } : {}),
        ...(preferences ? { [preferenceList]: preferences } : {}),
      };
    });
    if (elements) set(list, elements);
  }
  return result ?? data;
}

type ConsentOrAssociation = ConsentBody | BodyOf<StoredConsentAssociation>;

function renamedConsents(consents: unknown, names: CurrentNames): unknown[] | undefined {
  return mapChanged<ConsentOrAssociation>(consents, (consent) => renamedConsent(consent, names));
}

function renamedPreferences(preferences: unknown, names: CurrentNames): unknown[] | undefined {
  return mapChanged<PreferenceBody>(preferences, (preference) => {
    const associations = renamedConsents(preference.ConsentAssociations, names);
    return associations ? { ...preference, ConsentAssociations: associations } : undefined;
  });
}

function renamedConsent(
  consent: ConsentOrAssociation,
  names: CurrentNames,
): ConsentOrAssociation | undefined {
  if (typeof consent.ConsentType !== 'string') return undefined;
  const current = names.consentTypeName(consent.ConsentType);
  if (current === undefined || textKey(current) === textKey(consent.ConsentType)) {
    return undefined;
  }
  return {
    ...consent,
    ConsentType: current,
    ...('Key' in consent ? { Key: textKey(current) } : {}),
  };
}

/**
 * The array with changed elements replaced, or undefined when `change` changed none (what
 * is not an object is kept as it is). The elements are of the kind of the list it is given.
 */
function mapChanged<E extends object>(
  value: unknown,
  change: (element: E) => object | undefined,
): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  let changed = false;
  const isElement = (element: unknown): element is E =>
    typeof element === 'object' && element !== null;
  const result = value.map((element: unknown) => {
    if (!isElement(element)) return element;
    const next = change(element);
    if (!next) return element;
    changed = true;
    return next;
  });
  return changed ? result : undefined;
}
