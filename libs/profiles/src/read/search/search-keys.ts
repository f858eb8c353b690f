import { textKey } from '@app/shared';
import { alternateIdKey, groupKey } from '../../domain/element-rules';
import type { ProfileData } from '../../domain/profile-data.schema';
import type { ProfileRules } from '../../domain/profile-rules';
import type { KeyQuery } from '../../domain/profile-rules.port';
import type { NameParts, SearchCriteria } from './search-profiles/profile-search.criteria';

/*
 * The keys a profile is found by, without reading every profile: each search asks the key
 * index (Redis sets of profile ids per key, read/search/profile-key-index.service.ts) for
 * the profiles holding its keys, then checks every candidate exactly in code (the criteria
 * matcher). So the keys only need to be a superset: they are derived from every element,
 * active or not, and a stale member costs a read, never a wrong answer.
 */

/** A key query: the profiles holding at least one key of every group (AND of ORs). */
export type { KeyQuery };

const NAME_PARTS = [
  ['firstName', 'FirstName', 'first'],
  ['middleName', 'MiddleName', 'middle'],
  ['lastName', 'LastName', 'last'],
] as const;

/** Pieces of a name part that partial searches look up: every 2- and 3-character run. */
export function nameGrams(text: string): string[] {
  const grams = new Set<string>();
  for (const size of [2, 3]) {
    for (let i = 0; i + size <= text.length; i++) grams.add(text.slice(i, i + size));
  }
  return [...grams];
}

/** The run lookups a partial name part needs: its 3-character runs, or itself if 2 long. */
function partialNameGroups(prefix: string, wanted: string): KeyQuery {
  if (wanted.length >= 3)
    return nameGrams(wanted)
      .filter((g) => g.length === 3)
      .map((g) => [`${prefix}~${g}`]);
  if (wanted.length === 2) return [[`${prefix}~${wanted}`]];
  return []; // one character: checked on the candidates only
}

function nameGroups(name: NameParts, partial: boolean): KeyQuery {
  const groups: KeyQuery = [];
  for (const [part, , prefix] of NAME_PARTS) {
    const wanted = name[part] === undefined ? undefined : textKey(name[part]);
    if (wanted === undefined || wanted === '') continue;
    groups.push(...(partial ? partialNameGroups(prefix, wanted) : [[`${prefix}:${wanted}`]]));
  }
  return groups;
}

/** Every key of a profile's data: the profile's own, then those of the rule modules. */
export function searchKeysOf(data: ProfileData | undefined, rules: ProfileRules): Set<string> {
  const keys = new Set<string>();
  if (!data) return keys;
  rules.addSearchKeys(data, keys);
  for (const [, field, prefix] of NAME_PARTS) {
    const value = textKey(data.CustomerName?.[field]);
    if (!value) continue;
    keys.add(`${prefix}:${value}`);
    for (const gram of nameGrams(value)) keys.add(`${prefix}~${gram}`);
  }
  for (const phone of data.PhoneNumbers ?? []) {
    if (phone.PhoneNumberNumeric !== undefined) keys.add(`phone:${phone.PhoneNumberNumeric}`);
  }
  for (const email of data.Emails ?? []) {
    keys.add(`email:${email.Key || textKey(email.EmailAddress)}`);
  }
  for (const address of data.Addresses ?? []) {
    keys.add(`city:${textKey(address.City)}|${textKey(address.StateProvince)}`);
  }
  for (const tag of data.ProfileTags ?? []) keys.add(`tag:${tag.Key || textKey(tag.Name)}`);
  for (const field of data.CustomFields ?? []) {
    const name = field.Key || textKey(field.Name);
    keys.add(`cf:${name}=${textKey(field.Value)}`);
    if (typeof field.Value === 'string' && field.Value.includes('::')) {
      for (const value of field.Value.split('::')) keys.add(`cf:${name}=${textKey(value)}`);
    }
  }
  for (const group of data.Groups ?? []) {
    keys.add(`group:${group.Key || groupKey(group.GroupType, group.GroupName)}`);
  }
  for (const pair of data.AlternateIds ?? []) {
    keys.add(`altid:${pair.Key || alternateIdKey(pair.AlternateIdType, pair.AlternateId)}`);
  }
  return keys;
}

/** Whether the stored data carries the tag (tags have no inactive state on the wire). */
export function hasTag(data: ProfileData | undefined, key: string): boolean {
  return (data?.ProfileTags ?? []).some((tag) => (tag.Key || textKey(tag.Name)) === key);
}

/**
 * The key query of a search: its candidates are a superset of its matches. Empty: the
 * search names nothing the index can look up (a partial name of single characters only).
 */
export function keyQueryOf(criteria: SearchCriteria): KeyQuery {
  switch (criteria.kind) {
    case 'phone':
      return [[`phone:${Number(criteria.digits)}`]];
    case 'email':
      return [[`email:${textKey(criteria.emailAddress)}`]];
    case 'name':
      return nameGroups(criteria.name, criteria.partial);
    case 'address':
      return [
        [`city:${textKey(criteria.address.city)}|${textKey(criteria.address.stateProvince)}`],
        ...nameGroups(criteria.name, criteria.partialName),
      ];
    case 'tags':
      return criteria.tags.map((tag) => [`tag:${textKey(tag)}`]);
    case 'customFields':
      return criteria.fields.map((field) => [`cf:${textKey(field.Name)}=${textKey(field.Value)}`]);
    case 'selectList':
      return criteria.fields.flatMap((field) => {
        const keys = field.Values.map((value) => `cf:${textKey(field.Name)}=${textKey(value)}`);
        // Any of: one group of all the values; Equals and All of: every value.
        return field.OperatorId === 3 ? [keys] : keys.map((key) => [key]);
      });
  }
}
