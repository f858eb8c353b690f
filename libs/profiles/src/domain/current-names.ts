import { textKey } from '@app/shared';

/** What renaming stored references needs of the client's configuration. */
export interface CurrentNames {
  /** Whether some consent type has a former name (nothing to rename otherwise). */
  readonly renamedConsentTypes: boolean;
  /** The current name of the consent type called `name` now or before a rename. */
  consentTypeName(name: string): string | undefined;
}

type Element = Record<string, unknown>;

const CONTACT_LISTS: [list: string, preferences: string][] = [
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
  const profile = data as Element;
  let result: Element | undefined;
  const set = (field: string, value: unknown) => {
    result ??= { ...profile };
    result[field] = value;
  };

  const consents = renamedConsents(profile.Consents, names);
  if (consents) set('Consents', consents);
  const preferences = renamedPreferences(profile.ProfilePreferences, names);
  if (preferences) set('ProfilePreferences', preferences);
  for (const [list, preferenceList] of CONTACT_LISTS) {
    const elements = mapChanged(profile[list], (element) => {
      const consents = renamedConsents(element.Consents, names);
      const preferences = renamedPreferences(element[preferenceList], names);
      if (!consents && !preferences) return undefined;
      return {
        ...element,
        ...(consents ? { Consents: consents } : {}),
        ...(preferences ? { [preferenceList]: preferences } : {}),
      };
    });
    if (elements) set(list, elements);
  }
  return (result ?? data) as T;
}

function renamedConsents(consents: unknown, names: CurrentNames): Element[] | undefined {
  return mapChanged(consents, (consent) => renamedConsent(consent, names));
}

function renamedPreferences(preferences: unknown, names: CurrentNames): Element[] | undefined {
  return mapChanged(preferences, (preference) => {
    const associations = renamedConsents(preference.ConsentAssociations, names);
    return associations ? { ...preference, ConsentAssociations: associations } : undefined;
  });
}

function renamedConsent(consent: Element, names: CurrentNames): Element | undefined {
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

/** The array with changed elements replaced, or undefined when `change` changed none. */
function mapChanged(
  value: unknown,
  change: (element: Element) => Element | undefined,
): Element[] | undefined {
  if (!Array.isArray(value)) return undefined;
  let changed = false;
  const result = value.map((element: unknown) => {
    if (typeof element !== 'object' || element === null) return element as Element;
    const next = change(element as Element);
    if (!next) return element as Element;
    changed = true;
    return next;
  });
  return changed ? result : undefined;
}
