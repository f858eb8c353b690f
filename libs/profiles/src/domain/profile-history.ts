import {
  addressRule,
  customFieldRule,
  ElementRule,
  emailRule,
  phoneRule,
  PROFILE_FIELDS,
} from './element-rules';
import type { ProfileData } from './profile-data.schema';
import type {
  ContactIdentity,
  ContactIdentityField,
  ContactList,
  ContactSnapshot,
  HistoryContainer,
  HistorySnapshot,
  ProfileHistory,
  StandardField,
} from './profile-history.schema';
import type { ProfileRules } from './profile-rules';
import type { ContactPair, HistoryChange, HistoryDiff } from './profile-rules.port';
import type { Profile } from './profile.schema';
import {
  type ContactElement,
  deleteField,
  type ElementBody,
  fieldOf,
  setField,
} from './profile-shape';
import type { ProfileWrite } from './profile-write.schema';
import { historyEntryKey } from '../keys';

/** A history entry is the document stored for it: recording it again is a no-op. */
export type HistoryEntry = ProfileHistory;

/** The standard fields of the spec (CustomerName holds the name parts). */
export const STANDARD_FIELDS: StandardField[] = [...PROFILE_FIELDS, 'CustomerName'];

/** The contact lists, their nested preference list, and the fields that name an element. */
export const CONTACT_LISTS: {
  list: ContactList;
  rule: ElementRule;
  preferences: ContactPair['preferences'];
  identity: ContactIdentityField[];
}[] = [
  {
    list: 'Emails',
    rule: emailRule,
    preferences: 'EmailPreferences',
    identity: ['EmailAddress', 'EmailAddressType'],
  },
  {
    list: 'PhoneNumbers',
    rule: phoneRule,
    preferences: 'PhonePreferences',
    identity: ['PhoneNumber', 'PhoneType'],
  },
  {
    list: 'Addresses',
    rule: addressRule,
    preferences: 'AddressPreferences',
    identity: ['AddressType', 'Address1', 'PostalCode'],
  },
];

/** Stamps and derived keys: they change on every touch, so they are not a change. */
const NOT_CONTENT = new Set(['Edited', 'LastModifiedDate', 'Key']);

/** A change of the profile's own categories (standard fields have no list). */
type Change = Omit<HistoryChange, 'list'> & { list?: string };

/**
 * The history entries of one applied write: one per item whose content differs between
 * the stored data before and after it (standard fields, custom fields, contact elements,
 * then each rule module's categories, such as preferences and consents; elements matched
 * by their element-rules keys). A create records
 * everything. An item the write removed is recorded as its last state with IsActive
 * false. Pure and deterministic: times and ids come from the write, so recording the same
 * write twice gives the same documents.
 */
export function historyEntries(
  before: Profile,
  after: Profile,
  write: ProfileWrite,
  rules: ProfileRules,
): HistoryEntry[] {
  return describeWrite(before, after, write, rules).entries;
}

/** One write's history entries, each with the item as it was before the write. */
export interface DescribedWrite {
  entries: HistoryEntry[];
  /** Per entry (same index): the item before the write; undefined when it is new. */
  previous: (HistorySnapshot | undefined)[];
}

/**
 * historyEntries, with the state before the write of each changed item (what an event's
 * PreviousData shows): one diff serves both.
 */
export function describeWrite(
  before: Profile,
  after: Profile,
  write: ProfileWrite,
  rules: ProfileRules,
): DescribedWrite {
  // Tags are not part of history; a deleted profile keeps none.
  if (write.kind === 'remove-tag' || after.state === 'deleted' || !after.data) {
    return { entries: [], previous: [] };
  }
  const old = before.state === 'active' ? before.data : undefined;
  const previousOf: PreviousOf = new WeakMap();
  const changes = diffProfile(
    old,
    after.data,
    { at: write.acceptedAt.toISOString(), userId: write.userId },
    rules,
    previousOf,
  );
  const entries = changes.map((change, n) => ({
    _id: historyEntryKey(write.clientId, write.profileId, write.seq, n),
    clientId: write.clientId,
    profileId: write.profileId,
    seq: write.seq,
    n,
    modifiedAt: write.acceptedAt.toISOString(),
    ...change,
  }));
  return { entries, previous: changes.map((change) => previousOf.get(change.snapshot)) };
}

/** An item history records: an element the rules walk, of a kind a snapshot can be. */
type DiffedItem = ElementBody & HistorySnapshot;

/** Each changed item's snapshot → the item before the write (what an event's PreviousData shows). */
type PreviousOf = WeakMap<HistorySnapshot, HistorySnapshot>;

interface Stamp {
  at: string;
  userId: string;
}

function diffProfile(
  before: ProfileData | undefined,
  after: ProfileData,
  stamp: Stamp,
  rules: ProfileRules,
  previousOf: PreviousOf,
): Change[] {
  const changes: Change[] = [];

  if (!before || !sameContent(pick(before, STANDARD_FIELDS), pick(after, STANDARD_FIELDS))) {
    const snapshot = pick(after, [...STANDARD_FIELDS, 'Edited']);
    if (before) previousOf.set(snapshot, pick(before, [...STANDARD_FIELDS, 'Edited']));
    changes.push({ category: 'standard', snapshot });
  }

  const diffList = <E extends DiffedItem>(
    previous: readonly E[] | undefined,
    current: readonly E[] | undefined,
    rule: ElementRule,
    stampOf: Stamp,
    whole = false,
  ): E[] => changedItems(previous, current, rule, stampOf, whole, previousOf);

  for (const item of diffList(before?.CustomFields, after.CustomFields, customFieldRule, stamp)) {
    changes.push({ category: 'customField', list: 'CustomFields', snapshot: item });
  }

  const contacts: ContactPair[] = [];
  for (const { list, rule, preferences, identity } of CONTACT_LISTS) {
    for (const item of diffList<ContactElement>(before?.[list], after[list], rule, stamp)) {
      const snapshot: ContactSnapshot = omit(item, Object.keys(rule.nested));
      const previous = previousOf.get(item);
      if (previous) previousOf.set(snapshot, omit(previous, Object.keys(rule.nested)));
      changes.push({ category: 'contact', list, snapshot });
    }
    for (const [previous, current] of pairByKey<ContactElement>(
      before?.[list],
      after[list],
      rule,
    )) {
      const container: HistoryContainer = {
        list,
        fields: identityOf(current ?? previous!, identity),
      };
      contacts.push({ list, preferences, container, before: previous, after: current });
    }
  }

  const diff: HistoryDiff = {
    changedItems: (previous, current, rule, options) =>
      diffList(previous, current, rule, stamp, options?.whole ?? false),
    contacts,
  };
  for (const history of rules.historyRules()) changes.push(...history.changes(before, after, diff));
  return changes;
}

/**
 * Elements of a list before and after, matched by key: after's in their order (with the
 * element they replace, if any), then before's that are gone.
 */
function pairByKey<E extends ElementBody>(
  before: readonly E[] | undefined,
  after: readonly E[] | undefined,
  rule: ElementRule,
): [E | undefined, E | undefined][] {
  const was = asItems(before);
  const now = asItems(after);
  const previous = new Map<string, E>();
  for (const item of was) if (!previous.has(rule.key(item))) previous.set(rule.key(item), item);
  const kept = new Set(now.map((item) => rule.key(item)));
  return [
    ...now.map((item): [E | undefined, E] => [previous.get(rule.key(item)), item]),
    ...[...previous.entries()]
      .filter(([key]) => !kept.has(key))
      .map(([, item]): [E, undefined] => [item, undefined]),
  ];
}

/**
 * Items of a list whose content changed (new, changed, deactivated) as they are after the
 * write, and items the write removed that were active, as their last state made inactive
 * (stamped like a change by this write). Nested lists of the rule are compared by their
 * own entries, not here.
 */
function changedItems<E extends DiffedItem>(
  before: readonly E[] | undefined,
  after: readonly E[] | undefined,
  rule: ElementRule,
  stamp: Stamp,
  whole: boolean,
  previousOf: PreviousOf,
): E[] {
  // A contact's preferences and consents have entries of their own; a whole item's nested
  // lists (a preference's associations and attributes) are part of it.
  const ignore = whole ? [] : Object.keys(rule.nested);
  const changed: E[] = [];
  for (const [previous, current] of pairByKey(before, after, rule)) {
    if (current) {
      if (!previous || !sameContent(omit(previous, ignore), omit(current, ignore))) {
        const snapshot = snapshotOf(current);
        if (previous) previousOf.set(snapshot, snapshotOf(previous));
        changed.push(snapshot);
      }
    } else if (previous && fieldOf(previous, 'IsActive') !== false) {
      const last = removed(previous, rule, stamp);
      previousOf.set(last, snapshotOf(previous));
      changed.push(last);
    }
  }
  return changed;
}

function removed<E extends DiffedItem>(item: E, rule: ElementRule, stamp: Stamp): E {
  const last: E = { ...snapshotOf(item), IsActive: false };
  // The stamp fields by the rule's name for them (the rule is checked against E's class).
  if (rule.stamp === 'edited') {
    const edited = fieldOf(item, 'Edited');
    setField(last, 'Edited', {
      ...(typeof edited === 'object' ? edited : undefined),
      ModifiedDate: stamp.at,
      ModifiedBy: stamp.userId,
    });
  }
  if (rule.stamp === 'lastModified') setField(last, 'LastModifiedDate', stamp.at);
  return last;
}

/** The item as history keeps it: a copy without its derived Key. */
function snapshotOf<E extends object>(item: E): E {
  return omit(structuredClone(item), ['Key']);
}

function asItems<E>(value: readonly E[] | undefined): readonly E[] {
  return Array.isArray(value) ? value : [];
}

/** The named fields of a stored item (a standard-fields snapshot), those it has. */
function pick<T extends object, K extends keyof T>(
  item: T,
  fields: readonly K[],
): Partial<Pick<T, K>> {
  const result: Partial<Pick<T, K>> = {};
  for (const field of fields) {
    if (item[field] !== undefined) result[field] = item[field];
  }
  return result;
}

/** The fields naming a contact element on the wire (identity fields are text). */
function identityOf(
  element: ContactElement,
  fields: readonly ContactIdentityField[],
): ContactIdentity {
  const identity: ContactIdentity = {};
  for (const field of fields) {
    const value = fieldOf(element, field);
    if (typeof value === 'string' || value === null) identity[field] = value;
  }
  return identity;
}

/**
 * A copy of an item without the named fields (a contact's nested lists, the derived Key:
 * fields the item's type has as optional or that its snapshot type leaves out).
 */
function omit<T extends object>(item: T, fields: readonly string[]): T {
  const result = { ...item };
  for (const field of fields) deleteField(result, field);
  return result;
}

/**
 * Same content: equal once stamps are left out, and absent, null and empty lists count
 * as the same (the stored document and a freshly merged one spell "nothing" differently).
 */
function sameContent(a: object, b: object): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const result: [string, unknown][] = [];
  for (const key of Object.keys(value).sort()) {
    const field = fieldOf(value, key);
    if (NOT_CONTENT.has(key) || field === undefined || field === null) continue;
    if (Array.isArray(field) && field.length === 0) continue;
    result.push([key, canonical(field)]);
  }
  return Object.fromEntries(result);
}

/** History order: ascending by modified date, then write, then entry within the write. */
export function compareHistoryEntries(a: HistoryEntry, b: HistoryEntry): number {
  if (a.modifiedAt !== b.modifiedAt) return a.modifiedAt < b.modifiedAt ? -1 : 1;
  return a.seq - b.seq || a.n - b.n;
}
