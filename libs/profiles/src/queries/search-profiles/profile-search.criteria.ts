import { textKey } from '@app/shared';
import type {
  ProfileData,
  StoredConsent,
  StoredCustomField,
  StoredPreference,
} from '../../domain/profile-data.schema';
import {
  canSeeConsentType,
  canSeeCustomField,
  canSeePreference,
  type ProfileView,
} from '../../domain/profile-view';

/*
 * What each profile search asks for, the broad query that finds its candidates (dotted
 * array paths: this engine refuses `$elemMatch` with field conditions), and the exact
 * check of a candidate in code (the same active element must satisfy every condition).
 * The check ignores what the caller's view hides (custom fields, consents and preferences
 * outside its scope, implied preferences unless asked for): a profile that matched only
 * through hidden data would reveal it.
 */

export interface NameParts {
  firstName?: string;
  middleName?: string;
  lastName?: string;
}

export interface AddressParts {
  address1?: string;
  address2?: string;
  city: string;
  stateProvince: string;
  postalCode?: string;
  addressType?: string;
}

/** Select-list operators: 1 Equals, 2 All of, 3 Any of (the spec fixes only 3). */
export const SELECT_LIST_OPERATORS = { 1: 'Equals', 2: 'All of', 3: 'Any of' } as const;
export type SelectListOperatorId = keyof typeof SELECT_LIST_OPERATORS;

/** One `attributes[i].Key` / `attributes[i].Value` pair of the attribute searches. */
export interface AttributePair {
  Key: string;
  Value: string;
}

export type SearchCriteria =
  | { kind: 'phone'; digits: string; phoneType?: string }
  | { kind: 'email'; emailAddress: string; emailType?: string }
  | { kind: 'name'; partial: boolean; name: NameParts }
  | {
      kind: 'address';
      address: AddressParts;
      partialAddress1: boolean;
      partialName: boolean;
      name: NameParts;
    }
  | { kind: 'tags'; tags: string[] }
  | { kind: 'customFields'; fields: { Name: string; Value: string }[] }
  | {
      kind: 'selectList';
      fields: { OperatorId: SelectListOperatorId; Name: string; Values: string[] }[];
    }
  | { kind: 'consentAttributes'; attributes: AttributePair[] }
  | { kind: 'preferenceAttributes'; attributes: AttributePair[] };

/**
 * What the matcher takes: the criteria, with consent attributes resolved (from the
 * configuration) to the normalised names of the consent types carrying them.
 */
export type MatchCriteria =
  | Exclude<SearchCriteria, { kind: 'consentAttributes' }>
  | { kind: 'consentTypes'; consentTypeKeys: string[] };

type Condition = Record<string, unknown>;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive regex equivalent to textKey equality (or substring when partial). */
function textRegex(value: string, partial: boolean): Condition {
  const words = textKey(value).split(' ').map(escapeRegex).join('\\s+');
  return { $regex: partial ? words : `^\\s*${words}\\s*$`, $options: 'i' };
}

function textMatches(stored: unknown, wanted: string | undefined, partial = false): boolean {
  if (wanted === undefined) return true;
  const have = textKey(stored);
  const want = textKey(wanted);
  return partial ? have.includes(want) : have === want;
}

const NAME_FIELDS = [
  ['firstName', 'FirstName'],
  ['middleName', 'MiddleName'],
  ['lastName', 'LastName'],
] as const;

function nameConditions(name: NameParts, partial: boolean): Condition[] {
  return NAME_FIELDS.filter(([part]) => name[part] !== undefined).map(([part, field]) => ({
    [`data.CustomerName.${field}`]: textRegex(name[part]!, partial),
  }));
}

function nameMatches(data: ProfileData, name: NameParts, partial: boolean): boolean {
  return NAME_FIELDS.every(([part, field]) =>
    textMatches(data.CustomerName?.[field], name[part], partial),
  );
}

/** Where consents are stored: on the profile and on each kind of contact element. */
const CONSENT_KEY_PATHS = [
  'data.Consents.Key',
  'data.Emails.Consents.Key',
  'data.PhoneNumbers.Consents.Key',
  'data.Addresses.Consents.Key',
];

/** Where preference attributes are stored: the profile's preferences and each contact's. */
const PREFERENCE_ATTRIBUTE_KEY_PATHS = [
  'data.ProfilePreferences.PreferenceAttributes.Key',
  'data.Emails.EmailPreferences.PreferenceAttributes.Key',
  'data.PhoneNumbers.PhonePreferences.PreferenceAttributes.Key',
  'data.Addresses.AddressPreferences.PreferenceAttributes.Key',
];

/** Conditions of the candidate query (a superset of the matches; never empty). */
export function candidateConditions(criteria: MatchCriteria): Condition[] {
  switch (criteria.kind) {
    case 'phone':
      return [{ 'data.PhoneNumbers.PhoneNumberNumeric': Number(criteria.digits) }];
    case 'email':
      return [{ 'data.Emails.Key': textKey(criteria.emailAddress) }];
    case 'name':
      return nameConditions(criteria.name, criteria.partial);
    case 'address':
      return [
        { 'data.Addresses.City': textRegex(criteria.address.city, false) },
        { 'data.Addresses.StateProvince': textRegex(criteria.address.stateProvince, false) },
        ...nameConditions(criteria.name, criteria.partialName),
      ];
    case 'tags':
      return criteria.tags.map((tag) => ({ 'data.ProfileTags.Key': textKey(tag) }));
    case 'customFields':
    case 'selectList':
      return criteria.fields.map((field) => ({ 'data.CustomFields.Key': textKey(field.Name) }));
    case 'consentTypes':
      return [
        {
          $or: CONSENT_KEY_PATHS.map((path) => ({ [path]: { $in: criteria.consentTypeKeys } })),
        },
      ];
    case 'preferenceAttributes':
      // Attribute keys are stored as sent, so they are compared by a case-insensitive
      // anchored regex; values are checked in code only.
      return criteria.attributes.map((attribute) => ({
        $or: PREFERENCE_ATTRIBUTE_KEY_PATHS.map((path) => ({
          [path]: textRegex(attribute.Key, false),
        })),
      }));
  }
}

const isActive = (element: { IsActive?: boolean }) => element.IsActive !== false;

/** The active custom field of that name the view may see. */
function activeField(
  data: ProfileData,
  name: string,
  view: ProfileView,
): StoredCustomField | undefined {
  return (data.CustomFields ?? []).find(
    (field) =>
      isActive(field) &&
      (field.Key || textKey(field.Name)) === textKey(name) &&
      canSeeCustomField(view, field.Name),
  );
}

/** The profile's active contact elements, each kind with its preference container. */
function activeContacts(data: ProfileData) {
  return [
    ...(data.Emails ?? []).filter(isActive).map((email) => ({
      consents: email.Consents,
      preferences: email.EmailPreferences,
    })),
    ...(data.PhoneNumbers ?? []).filter(isActive).map((phone) => ({
      consents: phone.Consents,
      preferences: phone.PhonePreferences,
    })),
    ...(data.Addresses ?? []).filter(isActive).map((address) => ({
      consents: address.Consents,
      preferences: address.AddressPreferences,
    })),
  ];
}

/** Every consent of the profile itself and of its active contact elements. */
function consentsOf(data: ProfileData): StoredConsent[] {
  return [
    ...(data.Consents ?? []),
    ...activeContacts(data).flatMap((contact) => contact.consents ?? []),
  ];
}

/** Every preference of the profile itself and of its active contact elements. */
function preferencesOf(data: ProfileData): StoredPreference[] {
  return [
    ...(data.ProfilePreferences ?? []),
    ...activeContacts(data).flatMap((contact) => contact.preferences ?? []),
  ];
}

/**
 * Whether a preference is active, visible to the view and holds every listed attribute
 * (keys and values compared trimmed, spaces folded, case-insensitively).
 */
export function preferenceHasAttributes(
  preference: StoredPreference,
  attributes: AttributePair[],
  view: ProfileView,
): boolean {
  return (
    isActive(preference) &&
    canSeePreference(view, preference) &&
    attributes.every((wanted) =>
      (preference.PreferenceAttributes ?? []).some(
        (held) =>
          textKey(held.Key) === textKey(wanted.Key) &&
          textKey(held.Value) === textKey(wanted.Value),
      ),
    )
  );
}

/** The values of a stored select-list field (several are joined with `::`). */
export function selectListValues(value: unknown, separator: RegExp): Set<string> {
  return new Set(
    (typeof value === 'string' ? value.split(separator) : []).map(textKey).filter(Boolean),
  );
}

/**
 * Whether an active profile's data satisfies the search, on active elements only and on
 * what the view may see only.
 */
export function profileMatches(
  data: ProfileData,
  criteria: MatchCriteria,
  view: ProfileView,
): boolean {
  if (data.IsActive === false) return false;
  switch (criteria.kind) {
    case 'phone':
      return (data.PhoneNumbers ?? []).some(
        (phone) =>
          isActive(phone) &&
          phone.PhoneNumberNumeric === Number(criteria.digits) &&
          textMatches(phone.PhoneType, criteria.phoneType),
      );
    case 'email':
      return (data.Emails ?? []).some(
        (email) =>
          isActive(email) &&
          textMatches(email.EmailAddress, criteria.emailAddress) &&
          textMatches(email.EmailAddressType, criteria.emailType),
      );
    case 'name':
      return nameMatches(data, criteria.name, criteria.partial);
    case 'address': {
      const wanted = criteria.address;
      return (
        nameMatches(data, criteria.name, criteria.partialName) &&
        (data.Addresses ?? []).some(
          (address) =>
            isActive(address) &&
            textMatches(address.Address1, wanted.address1, criteria.partialAddress1) &&
            textMatches(address.Address2, wanted.address2) &&
            textMatches(address.City, wanted.city) &&
            textMatches(address.StateProvince, wanted.stateProvince) &&
            textMatches(address.PostalCode, wanted.postalCode) &&
            textMatches(address.AddressType, wanted.addressType),
        )
      );
    }
    case 'tags': {
      const keys = new Set(
        (data.ProfileTags ?? []).filter(isActive).map((tag) => tag.Key || textKey(tag.Name)),
      );
      return criteria.tags.every((tag) => keys.has(textKey(tag)));
    }
    case 'customFields':
      return criteria.fields.every((wanted) => {
        const field = activeField(data, wanted.Name, view);
        return field !== undefined && textMatches(field.Value, wanted.Value);
      });
    case 'selectList':
      return criteria.fields.every((wanted) => {
        const field = activeField(data, wanted.Name, view);
        if (!field) return false;
        const stored = selectListValues(field.Value, /::/);
        const values = wanted.Values.map(textKey);
        switch (wanted.OperatorId) {
          case 1:
            return stored.size === new Set(values).size && values.every((v) => stored.has(v));
          case 2:
            return values.every((value) => stored.has(value));
          case 3:
            return values.some((value) => stored.has(value));
        }
      });
    case 'consentTypes': {
      const keys = new Set(criteria.consentTypeKeys);
      return consentsOf(data).some(
        (consent) =>
          isActive(consent) &&
          keys.has(consent.Key || textKey(consent.ConsentType)) &&
          canSeeConsentType(view, consent.ConsentType),
      );
    }
    case 'preferenceAttributes':
      return preferencesOf(data).some((preference) =>
        preferenceHasAttributes(preference, criteria.attributes, view),
      );
  }
}

/**
 * The data a matched profile is answered with: as stored, except that the preference
 * attribute search keeps only the preferences holding every listed attribute (spec: "only
 * preferences containing all listed attributes are returned"), in every container.
 */
export function answeredData(
  data: ProfileData,
  criteria: MatchCriteria,
  view: ProfileView,
): ProfileData {
  if (criteria.kind !== 'preferenceAttributes') return data;
  const keep = (preferences: StoredPreference[] | undefined) =>
    (preferences ?? []).filter((preference) =>
      preferenceHasAttributes(preference, criteria.attributes, view),
    );
  return {
    ...data,
    ProfilePreferences: keep(data.ProfilePreferences),
    Emails: (data.Emails ?? []).map((email) => ({
      ...email,
      EmailPreferences: keep(email.EmailPreferences),
    })),
    PhoneNumbers: (data.PhoneNumbers ?? []).map((phone) => ({
      ...phone,
      PhonePreferences: keep(phone.PhonePreferences),
    })),
    Addresses: (data.Addresses ?? []).map((address) => ({
      ...address,
      AddressPreferences: keep(address.AddressPreferences),
    })),
  };
}
