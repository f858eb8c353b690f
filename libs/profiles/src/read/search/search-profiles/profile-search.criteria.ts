import { textKey, textKeyCondition } from '@app/shared';
import type { ProfileData, StoredCustomField } from '../../../domain/profile-data.schema';
import type { SearchCondition } from '../../../domain/profile-rules.port';
import { canSeeCustomField, type ProfileView } from '../../../domain/profile-view';

/*
 * What each profile search asks for, the broad query that finds its candidates (dotted
 * array paths: this engine refuses `$elemMatch` with field conditions), and the exact
 * check of a candidate in code (the same active element must satisfy every condition).
 * The check ignores what the caller's view hides (custom fields, consents and preferences
 * outside its scope, implied preferences unless asked for): a profile that matched only
 * through hidden data would reveal it. The searches of consents and preferences are the
 * rule modules' (ProfileSearchRule); these are the profile's own.
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
    };

/** The kinds of the profile's own searches (any other kind is a rule module's). */
export const PROFILE_SEARCH_KINDS: ReadonlySet<string> = new Set<SearchCriteria['kind']>([
  'phone',
  'email',
  'name',
  'address',
  'tags',
  'customFields',
  'selectList',
]);

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

function nameConditions(name: NameParts, partial: boolean): SearchCondition[] {
  return NAME_FIELDS.filter(([part]) => name[part] !== undefined).map(([part, field]) => ({
    [`data.CustomerName.${field}`]: textKeyCondition(name[part]!, partial),
  }));
}

function nameMatches(data: ProfileData, name: NameParts, partial: boolean): boolean {
  return NAME_FIELDS.every(([part, field]) =>
    textMatches(data.CustomerName?.[field], name[part], partial),
  );
}

/** Conditions of the candidate query (a superset of the matches; never empty). */
export function candidateConditions(criteria: SearchCriteria): SearchCondition[] {
  switch (criteria.kind) {
    case 'phone':
      return [{ 'data.PhoneNumbers.PhoneNumberNumeric': Number(criteria.digits) }];
    case 'email':
      return [{ 'data.Emails.Key': textKey(criteria.emailAddress) }];
    case 'name':
      return nameConditions(criteria.name, criteria.partial);
    case 'address':
      return [
        { 'data.Addresses.City': textKeyCondition(criteria.address.city, false) },
        { 'data.Addresses.StateProvince': textKeyCondition(criteria.address.stateProvince, false) },
        ...nameConditions(criteria.name, criteria.partialName),
      ];
    case 'tags':
      return criteria.tags.map((tag) => ({ 'data.ProfileTags.Key': textKey(tag) }));
    case 'customFields':
    case 'selectList':
      return criteria.fields.map((field) => ({ 'data.CustomFields.Key': textKey(field.Name) }));
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
  criteria: SearchCriteria,
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
  }
}
