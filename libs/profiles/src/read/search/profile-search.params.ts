import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import {
  InvalidInputError,
  parseBooleanValue,
  queryOf,
  type RawQuery,
  singleQueryValue,
} from '@app/shared';
import { phoneDigits } from '../../domain/element-rules';
import {
  type AttributePair,
  type NameParts,
  type SearchCriteria,
  SELECT_LIST_OPERATORS,
  type SelectListOperatorId,
} from './search-profiles/profile-search.criteria';

/*
 * Query parameters of the profile searches → their criteria (400 naming the parameter
 * and value). Fastify's querystring parser keeps `tags[0]` and `customFields[0].Name` as
 * flat keys; they are parsed here into ordered lists (indices from 0, without gaps).
 */

type QueryOf = RawQuery;

/** How the phone number of a search is documented: what parseSearch accepts. */
export const PHONE_NUMBER = {
  description: 'Any punctuation; 1 to 15 digits',
  pattern: '^\\D*(\\d\\D*){1,15}$',
};
export type SearchKind = SearchCriteria['kind'] | 'partialName';

const show = (value: unknown) => JSON.stringify(value);

/** The parameter's value; blank counts as absent. */
function single(query: QueryOf, name: string): string | undefined {
  const value = singleQueryValue(query, name);
  return value === undefined || value.trim() === '' ? undefined : value;
}

function required(query: QueryOf, name: string): string {
  const value = single(query, name);
  if (value === undefined) {
    throw new InvalidInputError(`Query parameter ${name} is required (value missing)`);
  }
  return value;
}

/** A boolean flag: blank is not absent here but refused, like any value other than true/false. */
function flag(query: QueryOf, name: string, absent = false): boolean {
  return parseBooleanValue(name, singleQueryValue(query, name), absent);
}

function nameParts(query: QueryOf, requireOne: boolean): NameParts {
  const name: NameParts = {
    firstName: single(query, 'firstName'),
    middleName: single(query, 'middleName'),
    lastName: single(query, 'lastName'),
  };
  if (requireOne && !name.firstName && !name.middleName && !name.lastName) {
    throw new InvalidInputError(
      'Query parameter firstName, middleName or lastName is required (value missing)',
    );
  }
  return name;
}

/**
 * The entries of an indexed list parameter (`prefix[i]` when `properties` is empty,
 * else `prefix[i].Property`), in index order. Any other key starting with the prefix
 * is malformed; indices must run from 0 without gaps; at least one entry is required.
 */
export function indexedList(
  query: QueryOf,
  prefix: string,
  properties: string[],
): Record<string, string | undefined>[] {
  const entries = new Map<number, Record<string, string | undefined>>();
  const pattern = properties.length
    ? new RegExp(`^${prefix}\\[(0|[1-9]\\d{0,3})\\]\\.(${properties.join('|')})$`)
    : new RegExp(`^${prefix}\\[(0|[1-9]\\d{0,3})\\]$`);
  for (const key of Object.keys(query)) {
    if (!key.toLowerCase().startsWith(prefix.toLowerCase())) continue;
    const match = pattern.exec(key);
    if (!match) {
      const form = properties.length ? `${prefix}[i].${properties.join('|')}` : `${prefix}[i]`;
      throw new InvalidInputError(
        `Malformed query parameter ${key} (value ${show(query[key])}): expected ${form} with i from 0`,
      );
    }
    const index = Number(match[1]);
    const entry = entries.get(index) ?? {};
    entry[match[2] ?? ''] = single(query, key);
    entries.set(index, entry);
  }
  const first = properties.length ? `${prefix}[0].${properties[0]}` : `${prefix}[0]`;
  if (!entries.size) throw new InvalidInputError(`Query parameter ${first} is required`);
  const list: Record<string, string | undefined>[] = [];
  for (let index = 0; index < entries.size; index++) {
    const entry = entries.get(index);
    if (!entry) {
      const highest = Math.max(...entries.keys());
      throw new InvalidInputError(
        `Malformed query parameters ${prefix}: index ${index} is missing (up to ${highest}); indices start at 0 without gaps`,
      );
    }
    list.push(entry);
  }
  return list;
}

function entryValue(
  entry: Record<string, string | undefined>,
  prefix: string,
  index: number,
  property: string,
): string {
  const value = entry[property];
  if (value === undefined) {
    const name = property ? `${prefix}[${index}].${property}` : `${prefix}[${index}]`;
    throw new InvalidInputError(`Query parameter ${name} is required (value missing)`);
  }
  return value;
}

/** `attributes[i].Key` and `attributes[i].Value`, both required, i from 0 without gaps. */
export function attributePairs(query: QueryOf): AttributePair[] {
  return indexedList(query, 'attributes', ['Key', 'Value']).map((entry, index) => ({
    Key: entryValue(entry, 'attributes', index, 'Key'),
    Value: entryValue(entry, 'attributes', index, 'Value'),
  }));
}

export function parseSearch(kind: SearchKind, query: QueryOf): SearchCriteria {
  switch (kind) {
    case 'phone': {
      const phoneNumber = required(query, 'phoneNumber');
      const digits = phoneDigits(phoneNumber);
      if (!digits || digits.length > 15) {
        throw new InvalidInputError(
          `Invalid phoneNumber (value ${show(phoneNumber)}): must hold 1 to 15 digits`,
        );
      }
      return { kind, digits, phoneType: single(query, 'phoneType') };
    }
    case 'email':
      return {
        kind,
        emailAddress: required(query, 'emailAddress'),
        emailType: single(query, 'emailType'),
      };
    case 'name':
    case 'partialName':
      return { kind: 'name', partial: kind === 'partialName', name: nameParts(query, true) };
    case 'address':
      return {
        kind,
        address: {
          address1: single(query, 'address1'),
          address2: single(query, 'address2'),
          city: required(query, 'city'),
          stateProvince: required(query, 'stateProvince'),
          postalCode: single(query, 'postalCode'),
          addressType: single(query, 'addressType'),
        },
        partialAddress1: flag(query, 'partialAddress1Match'),
        partialName: flag(query, 'partialNameMatch'),
        name: nameParts(query, false),
      };
    case 'tags':
      return {
        kind,
        tags: indexedList(query, 'tags', []).map((entry, index) =>
          entryValue(entry, 'tags', index, '').trim(),
        ),
      };
    case 'customFields':
      return {
        kind,
        fields: indexedList(query, 'customFields', ['Name', 'Value']).map((entry, index) => ({
          Name: entryValue(entry, 'customFields', index, 'Name'),
          Value: entryValue(entry, 'customFields', index, 'Value'),
        })),
      };
    case 'selectList':
      return {
        kind,
        fields: indexedList(query, 'customFields', ['OperatorId', 'Name', 'Value']).map(
          (entry, index) => {
            const operator = entryValue(entry, 'customFields', index, 'OperatorId');
            if (!/^[123]$/.test(operator.trim())) {
              throw new InvalidInputError(
                `Invalid customFields[${index}].OperatorId (value ${show(operator)}): must be 1 (${SELECT_LIST_OPERATORS[1]}), 2 (${SELECT_LIST_OPERATORS[2]}) or 3 (${SELECT_LIST_OPERATORS[3]})`,
              );
            }
            const value = entryValue(entry, 'customFields', index, 'Value');
            const values = value
              .split(':')
              .map((part) => part.trim())
              .filter(Boolean);
            if (!values.length) {
              throw new InvalidInputError(
                `Invalid customFields[${index}].Value (value ${show(value)}): no value given`,
              );
            }
            return {
              OperatorId: Number(operator) as SelectListOperatorId,
              Name: entryValue(entry, 'customFields', index, 'Name'),
              Values: values,
            };
          },
        ),
      };
  }
}

/** The flags every profile search takes besides its criteria. */
export interface SearchFlags {
  /** Implied preferences are returned (and match) as well as expressed ones; default false. */
  implied: boolean;
  /**
   * Default true. A profile holds one consent per consent type and container (no
   * superseded consents are kept on it), so both values give the same answer.
   */
  includeConsentHistory: boolean;
}

export function parseSearchFlags(query: QueryOf): SearchFlags {
  return {
    implied: flag(query, 'implied'),
    includeConsentHistory: flag(query, 'includeConsentHistory', true),
  };
}

/** The criteria of a profile search, parsed from the request's query parameters. */
export const SearchParams = createParamDecorator(
  (kind: SearchKind, ctx: ExecutionContext): SearchCriteria => parseSearch(kind, queryOf(ctx)),
);

/** The `attributes[i].Key` / `.Value` pairs of an attribute search (a rule module's). */
export const SearchAttributeParams = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AttributePair[] => attributePairs(queryOf(ctx)),
);

/** The `implied` and `includeConsentHistory` flags of a profile search (400 if not boolean). */
export const SearchFlagParams = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): SearchFlags => parseSearchFlags(queryOf(ctx)),
);
