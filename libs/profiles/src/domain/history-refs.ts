import { consentRule, preferenceRule, type ElementRule } from './element-rules';
import type { ProfileData } from './profile-data.schema';
import type { ContactList, ProfileHistory } from './profile-history.schema';
import { CONTACT_LISTS } from './profile-history';
import { type ElementBody, elementsOf, fieldOf } from './profile-shape';

/*
 * Which history entry last changed each item of a profile, without reading history: the
 * worker records, with every save, the `_id` of the entry (`<client>|<profile>|<seq>|<n>`)
 * that last changed the profile's own fields, each contact element, each preference and each
 * consent (Profile.historyRefs, JSON text; the read model carries it beside the data). The
 * contact-decision endpoint (libs/decisions) names these entries as the proof of each reason.
 *
 * The map sits beside the data rather than on the items, so the stored data, and with it
 * GET, searches, exports, events, history snapshots and the PATCH wire shape, stay exactly
 * as they were. An item whose last change predates the map (profiles saved before it
 * existed) has no entry in it: its reference is null until a write changes it.
 */

/** Item key → history entry `_id`. */
export type HistoryRefs = Readonly<Record<string, string>>;

/** The key of the profile's own fields (IsActive, the standard fields). */
export const PROFILE_REF_KEY = 'profile';

const SEPARATOR = '\t';
const NESTED_RULES: Record<string, ElementRule> = {
  Consents: consentRule,
  ProfilePreferences: preferenceRule,
  EmailPreferences: preferenceRule,
  PhonePreferences: preferenceRule,
  AddressPreferences: preferenceRule,
};
const CONTACT_RULES = new Map(CONTACT_LISTS.map(({ list, rule }) => [list as string, rule]));

/** The key of a contact element (`Emails`, `PhoneNumbers`, `Addresses`). */
export function contactRefKey(list: ContactList, element: ElementBody): string {
  return [list, CONTACT_RULES.get(list)!.key(element)].join(SEPARATOR);
}

/**
 * The key of a preference or consent: `nestedList` is its list (`Consents`,
 * `ProfilePreferences`, `EmailPreferences`...), `contact` the contact element holding it
 * (absent for the profile's own).
 */
export function itemRefKey(
  nestedList: string,
  item: ElementBody,
  contact?: { list: ContactList; element: ElementBody },
): string {
  const itemKey = (NESTED_RULES[nestedList] ?? consentRule).key(item);
  return contact
    ? [contactRefKey(contact.list, contact.element), nestedList, itemKey].join(SEPARATOR)
    : [nestedList, itemKey].join(SEPARATOR);
}

/** The map stored as text (undefined, unreadable: none). */
export function parseHistoryRefs(text: string | undefined): HistoryRefs {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as HistoryRefs) : {};
  } catch {
    return {};
  }
}

/** The key an entry is about, or undefined for categories no reference is kept of. */
function entryKey(entry: ProfileHistory): string | undefined {
  if (entry.category === 'standard') return PROFILE_REF_KEY;
  const list = entry.list;
  if (!list) return undefined;
  if (entry.category === 'contact' && CONTACT_RULES.has(list)) {
    return contactRefKey(list as ContactList, entry.snapshot);
  }
  if (!NESTED_RULES[list]) return undefined;
  const contact = entry.container
    ? { list: entry.container.list, element: entry.container.fields }
    : undefined;
  return itemRefKey(list, entry.snapshot, contact);
}

/** The keys of every item `data` holds (what the map keeps; others are dropped). */
function liveKeys(data: ProfileData): Set<string> {
  const keys = new Set<string>([PROFILE_REF_KEY]);
  for (const list of ['Consents', 'ProfilePreferences'] as const) {
    for (const item of elementsOf(data[list])) keys.add(itemRefKey(list, item));
  }
  for (const { list, preferences } of CONTACT_LISTS) {
    for (const element of elementsOf(data[list])) {
      keys.add(contactRefKey(list, element));
      for (const nested of ['Consents', preferences]) {
        for (const item of elementsOf(fieldOf(element, nested)))
          keys.add(itemRefKey(nested, item, { list, element }));
      }
    }
  }
  return keys;
}

/**
 * The map after a write: the one before it, with each item the write's entries describe
 * pointing at its entry, less the items the data no longer holds. Undefined for a profile
 * without data (deleted). Pure: a write applied again gives the same text.
 */
export function withHistoryRefs(
  previous: string | undefined,
  data: ProfileData | undefined,
  entries: ProfileHistory[],
): string | undefined {
  if (!data) return undefined;
  const refs: Record<string, string> = { ...parseHistoryRefs(previous) };
  for (const entry of entries) {
    const key = entryKey(entry);
    if (key !== undefined) refs[key] = entry._id;
  }
  const live = liveKeys(data);
  const kept = Object.keys(refs)
    .filter((key) => live.has(key))
    .sort();
  if (!kept.length) return undefined;
  return JSON.stringify(Object.fromEntries(kept.map((key) => [key, refs[key]])));
}
