import type {
  ProfileData,
  StoredAddress,
  StoredAlternateId,
  StoredConsent,
  StoredConsentAssociation,
  StoredCustomField,
  StoredEmail,
  StoredGroup,
  StoredPhone,
  StoredPreference,
  StoredPreferenceAttribute,
  StoredProfileTag,
} from './profile-data.schema';

/*
 * The typed profile the domain and the rule port share: the stored shape and the shape of
 * a write's body, both derived from the schema classes of profile-data.schema.ts.
 *
 * Why the schema classes and not interfaces of their own: the classes are the one
 * declaration of the stored shape (a field added there reaches every rule), and this file
 * (like every pure module) imports them with `import type` only, which the compiler erases:
 * no mongoose decorator runs, nor is loaded, where the domain is. A second, hand-written
 * set of interfaces would have to be kept in step with the schema by hand.
 */

export type { ProfileData } from './profile-data.schema';

/** Any element of an embedded collection, as stored. */
export type ProfileElement =
  | StoredConsent
  | StoredConsentAssociation
  | StoredPreference
  | StoredPreferenceAttribute
  | StoredEmail
  | StoredPhone
  | StoredAddress
  | StoredCustomField
  | StoredGroup
  | StoredProfileTag
  | StoredAlternateId;

/** A contact element (the elements that hold preferences and consents of their own). */
export type ContactElement = StoredEmail | StoredPhone | StoredAddress;

/**
 * What a write names of a stored shape `T`: every field optional (a merge changes only
 * what it names), null clears it, nested elements and lists likewise. The DTOs checked the
 * wire body before it reaches the domain; the rules still narrow each value they read.
 */
export type BodyOf<T> = { [K in keyof T]?: BodyValue<T[K]> | null };
type BodyValue<V> = V extends readonly (infer E)[] ? BodyOf<E>[] : V extends object ? BodyOf<V> : V;

/**
 * A create, merge or overwrite body (or a patched profile) as the rules read it: the
 * stored fields, and the wire fields the service sets itself (a body may send back what a
 * GET answered; they are ignored).
 */
export type ProfileBody = BodyOf<ProfileData> & {
  ProfileId?: number | null;
  UpdateStatus?: string | null;
};

/**
 * An element of a body or of the stored data (a stored element is a body element with
 * every field it has): what the element rules key and the generic walks read.
 */
export type ElementBody = BodyOf<ProfileElement>;

export type ConsentBody = BodyOf<StoredConsent>;
export type PreferenceBody = BodyOf<StoredPreference>;
export type ContactBody = BodyOf<ContactElement>;

/**
 * A field of an element read by its name, for the walks that are generic over the
 * collections (the merge, the history diff: the names come from an ElementRule, checked
 * against the element's class where the rule is declared). Typed code reads fields as
 * fields; this is the one place that reads them by name.
 */
export function fieldOf(element: object | null | undefined, field: string): unknown {
  return element ? (Reflect.get(element, field) as unknown) : undefined;
}

/** The elements of a list value (objects only; anything else is no element). */
export function elementsOf<E extends object = ElementBody>(value: unknown): E[] {
  return Array.isArray(value)
    ? value.filter((v): v is E => v !== null && typeof v === 'object')
    : [];
}

/**
 * The preference list of a stored contact element (EmailPreferences, PhonePreferences or
 * AddressPreferences, whichever its kind holds).
 */
export function contactPreferences(
  element: ContactElement | undefined,
): StoredPreference[] | undefined {
  if (!element) return undefined;
  if ('EmailPreferences' in element) return element.EmailPreferences;
  if ('PhonePreferences' in element) return element.PhonePreferences;
  if ('AddressPreferences' in element) return element.AddressPreferences;
  return undefined;
}

/** Sets a field of an element being built, by the name an ElementRule gives. */
export function setField(element: object, field: string, value: unknown): void {
  Reflect.set(element, field, value);
}

/** Removes a field of an element being built, by the name an ElementRule gives. */
export function deleteField(element: object, field: string): void {
  Reflect.deleteProperty(element, field);
}

/** A list value as a list of elements (not filtered: the DTOs checked the body's lists). */
export function listOf(value: unknown): readonly ElementBody[] | null {
  return Array.isArray(value) ? value : null;
}
