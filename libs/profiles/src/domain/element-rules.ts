import { textKey } from '@app/shared';
import { preferenceKey } from './preference-key';
import type {
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
import type { StandardField } from './profile-history.schema';
import { type BodyOf, type ElementBody, fieldOf } from './profile-shape';
import { phoneDigits } from './text';

/*
 * How each embedded collection matches an element of a request against a stored one
 * (merge and overwrite), and which fields an element carries. Text keys compare
 * trimmed and case-insensitively; phones compare by their digits.
 */

/** The field names of a stored element class: a misspelt one fails to compile. */
type FieldOf<E> = Extract<keyof E, string>;

export interface ElementRule {
  /** What the key is made of, for messages ("EmailAddress"). */
  keyFields: string[];
  key(element: ElementBody): string;
  /** Plain fields taken from a request element when present. */
  fields: string[];
  /** Nested collections and their rules. */
  nested: Record<string, ElementRule>;
  /** Whether the element carries Edited (or, for preferences, LastModifiedDate). */
  stamp: 'edited' | 'lastModified' | 'none';
  /** Whether the element has IsActive (defaults to true when created). */
  activatable: boolean;
  /** Fields computed from the others after each change (on an element being built). */
  derive?(element: ElementBody): void;
}

/**
 * An ElementRule checked against its stored element class `E`: the key fields, plain
 * fields and nested collections it names must be fields of `E`, and `key` and `derive` see
 * `E`'s field types. The merge then walks the rule over any element (ElementBody), handing
 * each rule only elements of its own collection.
 */
function elementRule<E>(
  rule: Omit<ElementRule, 'keyFields' | 'key' | 'fields' | 'nested' | 'derive'> & {
    keyFields: FieldOf<E>[];
    key(element: BodyOf<E>): string;
    fields: FieldOf<E>[];
    nested: { [K in FieldOf<E>]?: ElementRule };
    derive?(element: BodyOf<E>): void;
  },
): ElementRule {
  // The checks above are compile-time only: the rule is the same, its nested rules named.
  const { nested, ...checked } = rule;
  const named: Record<string, ElementRule> = {};
  for (const [collection, nestedRule] of Object.entries<ElementRule | undefined>(nested)) {
    if (nestedRule) named[collection] = nestedRule;
  }
  return { ...checked, nested: named };
}

export { phoneDigits } from './text';

const keyOf =
  (...fields: string[]) =>
  (element: ElementBody): string =>
    fields.map((field) => textKey(fieldOf(element, field))).join('|');

export const consentAssociationRule = elementRule<StoredConsentAssociation>({
  keyFields: ['ConsentType'],
  key: keyOf('ConsentType'),
  fields: ['ConsentType', 'ConsentVersion', 'IsActive', 'Locale', 'ReasonCode'],
  nested: {},
  stamp: 'none',
  activatable: true,
});

export const preferenceAttributeRule = elementRule<StoredPreferenceAttribute>({
  keyFields: ['Key'],
  key: keyOf('Key'),
  fields: ['Key', 'Value'],
  nested: {},
  stamp: 'none',
  activatable: false,
});

export const consentRule = elementRule<StoredConsent>({
  keyFields: ['ConsentType'],
  key: keyOf('ConsentType'),
  fields: [
    'ConsentType',
    'ConsentVersion',
    'Locale',
    'ConsentStatus',
    'ReasonCode',
    'ConsentDate',
    'ExpirationDate',
    'SourceId',
    'IsActive',
  ],
  nested: {},
  stamp: 'edited',
  activatable: true,
  derive(element) {
    // The normalised type: what the consent-attribute search looks profiles up by.
    element.Key = textKey(element.ConsentType);
  },
});

export const preferenceRule = elementRule<StoredPreference>({
  keyFields: ['ProgramId', 'ChannelId', 'FilterId'],
  // Ids as numbers, channel aliases as their channel ("SMS" is "Text/SMS").
  key: preferenceKey,
  fields: [
    'ProgramId',
    'ChannelId',
    'FilterId',
    'FrequencyId',
    'MatchType',
    'ReasonCode',
    'PreferenceStatus',
    'UserId',
    'SourceId',
    'ExpirationDate',
    'CustomerDate',
    'PreferenceType',
  ],
  nested: {
    ConsentAssociations: consentAssociationRule,
    PreferenceAttributes: preferenceAttributeRule,
  },
  stamp: 'lastModified',
  activatable: true,
});

export const emailRule = elementRule<StoredEmail>({
  keyFields: ['EmailAddress'],
  key: keyOf('EmailAddress'),
  fields: ['EmailAddressType', 'EmailAddress', 'IsDefault', 'IsActive'],
  nested: { EmailPreferences: preferenceRule, Consents: consentRule },
  stamp: 'edited',
  activatable: true,
  derive(element) {
    // The normalised address: what the email searches look profiles up by.
    element.Key = textKey(element.EmailAddress);
  },
});

export const phoneRule = elementRule<StoredPhone>({
  keyFields: ['PhoneNumber'],
  key: (element) => phoneDigits(element.PhoneNumber),
  fields: ['PhoneType', 'PhoneNumber', 'IsDefault', 'IsMobile', 'IsActive'],
  nested: { PhonePreferences: preferenceRule, Consents: consentRule },
  stamp: 'edited',
  activatable: true,
  derive(element) {
    element.PhoneNumberNumeric = Number(phoneDigits(element.PhoneNumber));
  },
});

export const ADDRESS_FIELDS: FieldOf<StoredAddress>[] = [
  'AddressType',
  'IsActive',
  'IsDefault',
  'Address1',
  'Address2',
  'City',
  'StateProvince',
  'PostalCode',
  'Country',
  'CountryCode_Numeric',
  'CountryCode_Alpha2',
  'CountryCode_Alpha3',
  'CassAddress1',
  'CassAddress2',
  'CassCity',
  'CassStateProvince',
  'CassPostalCode',
  'CassStatus',
];

/** An address is the same address when its type, first line and postal code agree. */
export const addressRule = elementRule<StoredAddress>({
  keyFields: ['AddressType', 'Address1', 'PostalCode'],
  key: (element) =>
    [
      textKey(element.AddressType),
      textKey(element.Address1),
      textKey(element.PostalCode).replace(/\s/g, ''),
    ].join('|'),
  fields: ADDRESS_FIELDS,
  nested: { AddressPreferences: preferenceRule, Consents: consentRule },
  stamp: 'edited',
  activatable: true,
});

export const customFieldRule = elementRule<StoredCustomField>({
  keyFields: ['Name'],
  key: keyOf('Name'),
  fields: ['Name', 'Value', 'IsActive'],
  nested: {},
  stamp: 'edited',
  activatable: true,
  derive(element) {
    // The normalised name: what the custom-field searches look profiles up by.
    element.Key = textKey(element.Name);
  },
});

export const groupRule = elementRule<StoredGroup>({
  keyFields: ['GroupType', 'GroupName'],
  key: keyOf('GroupType', 'GroupName'),
  fields: ['GroupType', 'GroupName', 'IsPrimary', 'IsActive'],
  nested: {},
  stamp: 'edited',
  activatable: true,
  derive(element) {
    // The normalised type and name: what group lookups (rename, group profiles) use.
    element.Key = groupKey(element.GroupType, element.GroupName);
  },
});

export const tagRule = elementRule<StoredProfileTag>({
  keyFields: ['Name'],
  key: keyOf('Name'),
  fields: ['Name'],
  nested: {},
  stamp: 'none',
  activatable: true,
  derive(element) {
    // The normalised name: what tag counts and tag deletion look profiles up by.
    element.Key = textKey(element.Name);
  },
});

export const alternateIdRule = elementRule<StoredAlternateId>({
  keyFields: ['AlternateIdType', 'AlternateId'],
  key: keyOf('AlternateIdType', 'AlternateId'),
  fields: ['AlternateIdType', 'AlternateId', 'IsActive'],
  nested: {},
  stamp: 'edited',
  activatable: true,
  derive(element) {
    // The normalised pair: what a lookup by alternate id (matchInactive) searches.
    element.Key = alternateIdKey(element.AlternateIdType, element.AlternateId);
  },
});

/** Type and value trimmed, spaces folded, lower-cased: pairs match case-insensitively. */
export function alternateIdKey(type: unknown, value: unknown): string {
  return `${textKey(type)}|${textKey(value)}`;
}

/** Group type and name trimmed, spaces folded, lower-cased: groups match case-insensitively. */
export function groupKey(type: unknown, name: unknown): string {
  return `${textKey(type)}|${textKey(name)}`;
}

/** The profile's own collections. */
export const PROFILE_COLLECTIONS: Record<string, ElementRule> = {
  Consents: consentRule,
  CustomFields: customFieldRule,
  Groups: groupRule,
  ProfileTags: tagRule,
  Addresses: addressRule,
  Emails: emailRule,
  PhoneNumbers: phoneRule,
  ProfilePreferences: preferenceRule,
  AlternateIds: alternateIdRule,
};

/** The profile's standard fields (CustomerName is merged field by field). */
export const PROFILE_FIELDS: Exclude<StandardField, 'CustomerName'>[] = [
  'IsActive',
  'RegistrationConfirmed',
  'CustomerType',
  'PreserveConsents',
  'PreservePreferences',
  'DefaultLocale',
  'ReasonCode',
];

export const CUSTOMER_NAME_FIELDS = ['FirstName', 'MiddleName', 'LastName', 'Prefix', 'Suffix'];
