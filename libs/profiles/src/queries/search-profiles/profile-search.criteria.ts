import type { ProfileData, StoredCustomField } from '../../domain/profile-data.schema';
import { normText } from '../../domain/element-rules';

/*
 * What each profile search asks for, the broad query that finds its candidates (dotted
 * array paths: this engine refuses `$elemMatch` with field conditions), and the exact
 * check of a candidate in code (the same active element must satisfy every condition).
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

type Condition = Record<string, unknown>;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A case-insensitive regex equivalent to normText equality (or substring when partial). */
function textRegex(value: string, partial: boolean): Condition {
  const words = normText(value).split(' ').map(escapeRegex).join('\\s+');
  return { $regex: partial ? words : `^\\s*${words}\\s*$`, $options: 'i' };
}

function textMatches(stored: unknown, wanted: string | undefined, partial = false): boolean {
  if (wanted === undefined) return true;
  const have = normText(stored);
  const want = normText(wanted);
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

/** Conditions of the candidate query (a superset of the matches; never empty). */
export function candidateConditions(criteria: SearchCriteria): Condition[] {
  switch (criteria.kind) {
    case 'phone':
      return [{ 'data.PhoneNumbers.PhoneNumberNumeric': Number(criteria.digits) }];
    case 'email':
      return [{ 'data.Emails.EmailAddress': textRegex(criteria.emailAddress, false) }];
    case 'name':
      return nameConditions(criteria.name, criteria.partial);
    case 'address':
      return [
        { 'data.Addresses.City': textRegex(criteria.address.city, false) },
        { 'data.Addresses.StateProvince': textRegex(criteria.address.stateProvince, false) },
        ...nameConditions(criteria.name, criteria.partialName),
      ];
    case 'tags':
      return criteria.tags.map((tag) => ({ 'data.ProfileTags.Key': normText(tag) }));
    case 'customFields':
    case 'selectList':
      return criteria.fields.map((field) => ({
        'data.CustomFields.Name': textRegex(field.Name, false),
      }));
  }
}

const isActive = (element: { IsActive?: boolean }) => element.IsActive !== false;

function activeField(data: ProfileData, name: string): StoredCustomField | undefined {
  return (data.CustomFields ?? []).find(
    (field) => isActive(field) && normText(field.Name) === normText(name),
  );
}

/** The values of a stored select-list field (several are joined with `::`). */
export function selectListValues(value: unknown, separator: RegExp): Set<string> {
  return new Set(
    (typeof value === 'string' ? value.split(separator) : []).map(normText).filter(Boolean),
  );
}

/** Whether an active profile's data satisfies the search, on active elements only. */
export function profileMatches(data: ProfileData, criteria: SearchCriteria): boolean {
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
        (data.ProfileTags ?? []).filter(isActive).map((tag) => tag.Key || normText(tag.Name)),
      );
      return criteria.tags.every((tag) => keys.has(normText(tag)));
    }
    case 'customFields':
      return criteria.fields.every((wanted) => {
        const field = activeField(data, wanted.Name);
        return field !== undefined && textMatches(field.Value, wanted.Value);
      });
    case 'selectList':
      return criteria.fields.every((wanted) => {
        const field = activeField(data, wanted.Name);
        if (!field) return false;
        const stored = selectListValues(field.Value, /::/);
        const values = wanted.Values.map(normText);
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
