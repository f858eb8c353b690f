import { textKey } from '@app/shared';
import { withCurrentNames } from './current-names';
import type {
  ProfileData,
  StoredConsentAssociation,
  StoredCustomField,
} from './profile-data.schema';
import type { ContactList } from './profile-history.schema';
import {
  type BodyOf,
  type ConsentBody,
  type ContactBody,
  elementsOf,
  fieldOf,
  type PreferenceBody,
  type ProfileBody,
} from './profile-shape';
import type { ProfileRules } from './profile-rules';
import type { ProfileTypeKind, ProfileVocabulary } from './profile-vocabulary';

const TYPE_REFERENCES: [keyof ProfileData, string, ProfileTypeKind][] = [
  ['Addresses', 'AddressType', 'AddressTypes'],
  ['AlternateIds', 'AlternateIdType', 'AlternateIdTypes'],
  ['Groups', 'GroupType', 'GroupTypes'],
  ['Emails', 'EmailAddressType', 'EmailTypes'],
  ['PhoneNumbers', 'PhoneType', 'PhoneTypes'],
];

const CONTACT_CONTAINERS: [ContactList, string][] = [
  ['Emails', 'EmailPreferences'],
  ['PhoneNumbers', 'PhonePreferences'],
  ['Addresses', 'AddressPreferences'],
];

/**
 * Checks a profile body against the client's configuration: every type, consent type
 * and version, and custom field it names exists and is active; custom field values fit
 * their definition and update rule against `current` (the stored profile, if any);
 * create and overwrite carry every required custom field. Returns one message per
 * problem, each naming the field by its path and the value.
 */
export function checkAgainstConfiguration(
  body: ProfileBody,
  vocabulary: ProfileVocabulary,
  rules: ProfileRules,
  kind: 'create' | 'merge' | 'overwrite',
  current?: ProfileData,
): string[] {
  // Consent types named by a former name, in the body or stored, compare as their current one.
  body = withCurrentNames(body, vocabulary);
  current = current && withCurrentNames(current, vocabulary);
  const problems: string[] = [];
  const named = (
    path: string,
    value: unknown,
    what: string,
    entry: { IsActive: boolean } | undefined,
  ) => {
    if (!entry)
      problems.push(`${path} (value ${JSON.stringify(value)}) names no ${what} of this account`);
    else if (!entry.IsActive)
      problems.push(`${path} (value ${JSON.stringify(value)}) is an inactive ${what}`);
  };

  if (typeof body.CustomerType === 'string') {
    named(
      'CustomerType',
      body.CustomerType,
      'customer type',
      vocabulary.type('CustomerTypes', body.CustomerType),
    );
  }
  for (const [collection, field, typeKind] of TYPE_REFERENCES) {
    elementsOf(body[collection]).forEach((element, index) => {
      const value = fieldOf(element, field);
      if (typeof value === 'string') {
        named(
          `${collection}[${index}].${field}`,
          value,
          typeKindLabel(typeKind),
          vocabulary.type(typeKind, value),
        );
      }
    });
  }

  const checkConsents = (consents: unknown, path: string) =>
    elementsOf<ConsentBody | BodyOf<StoredConsentAssociation>>(consents).forEach((consent, index) =>
      checkConsent(consent, `${path}[${index}]`),
    );
  const checkConsent = (consent: ConsentBody | BodyOf<StoredConsentAssociation>, path: string) => {
    const typeName = consent.ConsentType;
    if (typeof typeName !== 'string') return;
    const type = vocabulary.consentType(typeName);
    named(`${path}.ConsentType`, typeName, 'consent type', type);
    const version = consent.ConsentVersion;
    if (type && typeof version === 'string') {
      const found = type.Versions.find(
        (v) => v.ConsentVersion.toLowerCase() === version.toLowerCase(),
      );
      named(`${path}.ConsentVersion`, version, `version of consent type "${typeName}"`, found);
    }
  };
  const checkPreferences = (preferences: unknown, path: string) =>
    elementsOf<PreferenceBody>(preferences).forEach((preference, index) =>
      checkConsents(preference.ConsentAssociations, `${path}[${index}].ConsentAssociations`),
    );

  // The rule modules' own problems (consent transitions, preferences), in their order.
  problems.push(...rules.problems(body, vocabulary, kind, current));
  checkConsents(body.Consents, 'Consents');
  checkPreferences(body.ProfilePreferences, 'ProfilePreferences');
  for (const [collection, preferences] of CONTACT_CONTAINERS) {
    elementsOf<ContactBody>(body[collection]).forEach((element, index) => {
      checkConsents(element.Consents, `${collection}[${index}].Consents`);
      checkPreferences(fieldOf(element, preferences), `${collection}[${index}].${preferences}`);
    });
  }

  const stored = new Map(
    (current?.CustomFields ?? [])
      .filter((field) => field.IsActive !== false)
      .map((field) => [textKey(field.Name), field.Value ?? null]),
  );
  const given = new Set<string>();
  elementsOf<BodyOf<StoredCustomField>>(body.CustomFields).forEach((field, index) => {
    const name = field.Name;
    if (typeof name !== 'string') return;
    const path = `CustomFields[${index}]`;
    const definition = vocabulary.customField(name);
    named(`${path}.Name`, name, 'custom field', definition);
    if (!definition?.IsActive) return;
    const key = textKey(name);
    const removing = field.IsActive === false;
    const newValue = removing ? null : typeof field.Value === 'string' ? field.Value : null;
    if (!removing && newValue !== null && newValue !== '') given.add(key);
    // In a merge, a field named without Value keeps its value: nothing to check.
    if (!removing && !('Value' in field)) {
      if (stored.get(key)) given.add(key);
      return;
    }
    const message = vocabulary.checkCustomFieldValue(name, newValue, stored.get(key) ?? null);
    if (message) problems.push(`${path}: ${message}`);
  });

  if (kind === 'overwrite' && current) {
    // An overwrite removes the fields it omits: their update rules must allow it.
    for (const [key, value] of stored) {
      if (given.has(key) || value === null || value === '') continue;
      const name = current.CustomFields.find((field) => textKey(field.Name) === key)?.Name ?? key;
      if (!vocabulary.customField(name)?.IsActive) continue;
      const message = vocabulary.checkCustomFieldValue(name, null, value);
      if (message) problems.push(`CustomFields (omitted ${JSON.stringify(name)}): ${message}`);
    }
  }
  if (kind !== 'merge') {
    for (const name of vocabulary.requiredCustomFields()) {
      if (!given.has(textKey(name))) {
        problems.push(
          `CustomFields: the required custom field ${JSON.stringify(name)} has no value`,
        );
      }
    }
  }
  return problems;
}

function typeKindLabel(kind: ProfileTypeKind): string {
  return {
    CustomerTypes: 'customer type',
    AddressTypes: 'address type',
    AlternateIdTypes: 'alternate id type',
    GroupTypes: 'group type',
    EmailTypes: 'email type',
    PhoneTypes: 'phone type',
  }[kind];
}
