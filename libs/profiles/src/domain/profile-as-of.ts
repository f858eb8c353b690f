import { textKey } from '@app/shared';
import { consentRule, type ElementRule, PROFILE_COLLECTIONS } from './element-rules';
import type { CurrentNames } from './current-names';
import type { Edited, ProfileData, StoredConsent, StoredPreference } from './profile-data.schema';
import { CONTACT_LISTS, STANDARD_FIELDS } from './profile-history';
import {
  type ContactIdentity,
  type ContactSnapshot,
  type HistoryContainer,
  isConsentEntry,
  isContactEntry,
  isCustomFieldEntry,
  isPreferenceEntry,
  isStandardEntry,
  type ProfileHistory,
  type StandardSnapshot,
} from './profile-history.schema';
import {
  type ContactElement,
  contactPreferences,
  type ElementBody,
  fieldOf,
} from './profile-shape';

/** What a profile's history says of one instant (see profileDataAsOf). */
export type ProfileAsOf =
  | {
      status: 'rebuilt';
      /** The stored data as it stood (inactive elements kept, as stored data keeps them). */
      data: ProfileData;
      /** The last write applied to it, and its acceptance time (ISO 8601). */
      seq: number;
      at: string;
    }
  /** The instant lies before the first recorded write (the profile's creation). */
  | { status: 'before'; earliest: string }
  /** No entry at all (the profile's create is not applied yet). */
  | { status: 'empty' }
  /** The first recorded write is not a creation: nothing before it is known. */
  | { status: 'incomplete'; earliest: string };

/**
 * The profile data as it stood at `asOf`, rebuilt from the profile's history entries (any
 * order; those of one profile, up to its appliedSeq). Writes are replayed in sequence
 * order, each whole, up to the first accepted after `asOf` (acceptance times rise with the
 * sequence, so this is every write accepted at or before `asOf`, and always a state the
 * profile really had). Each entry is the item as the write left it: it replaces the item
 * of the same element-rules key in its list (a contact element keeps its nested lists,
 * which have entries of their own; a preference or consent is found in the contact element
 * its `container` names), or is appended when new. A removed item was recorded as its last
 * state with IsActive false, so it stays, inactive, as the mapper expects. Fields of an
 * entry this function does not know are ignored.
 *
 * What history does not hold is not rebuilt: Groups, ProfileTags and AlternateIds are
 * left empty. The profile's own Edited: CreateDate and CreatedBy from its creation,
 * ModifiedDate the acceptance time of the last replayed write, ModifiedBy its writer as
 * its entries' stamps name it (else the last writer they named before).
 *
 * `names`: consents stored under a consent type's former name are matched with entries
 * under its current one (the worker renames them at the next write without an entry).
 */
export function profileDataAsOf(
  entries: readonly ProfileHistory[],
  asOf: Date,
  names?: CurrentNames,
): ProfileAsOf {
  const sorted = [...entries].sort((a, b) => a.seq - b.seq || a.n - b.n);
  if (!sorted.length) return { status: 'empty' };
  const first = sorted[0];
  const creates = sorted.some((entry) => entry.seq === first.seq && entry.category === 'standard');
  if (!creates) return { status: 'incomplete', earliest: first.modifiedAt };
  const limit = asOf.getTime();
  if (Date.parse(first.modifiedAt) > limit) return { status: 'before', earliest: first.modifiedAt };

  const rebuild = new Rebuild(names);
  let last = first;
  for (const entry of sorted) {
    if (Date.parse(entry.modifiedAt) > limit) break;
    rebuild.apply(entry);
    last = entry;
  }
  return { status: 'rebuilt', data: rebuild.result(last), seq: last.seq, at: last.modifiedAt };
}

/** The earliest instant a profile's history can rebuild: its first write's acceptance. */
export function earliestInstant(entries: readonly ProfileHistory[]): string | undefined {
  let earliest: ProfileHistory | undefined;
  for (const entry of entries) {
    if (
      !earliest ||
      entry.seq < earliest.seq ||
      (entry.seq === earliest.seq && entry.n < earliest.n)
    )
      earliest = entry;
  }
  return earliest?.modifiedAt;
}

/** A contact list: its name, its elements' rule and their preference list's name. */
type ContactListOf = (typeof CONTACT_LISTS)[number];

/** The lists of the profile itself a rebuild fills (the rest is not in history). */
type RebuiltLists = Pick<
  ProfileData,
  'Consents' | 'CustomFields' | 'Addresses' | 'Emails' | 'PhoneNumbers' | 'ProfilePreferences'
>;

class Rebuild {
  private standard: StandardSnapshot = {};
  private readonly lists: RebuiltLists = {
    Consents: [],
    CustomFields: [],
    Addresses: [],
    Emails: [],
    PhoneNumbers: [],
    ProfilePreferences: [],
  };
  /** The writer of each replayed write, as an entry's Edited stamp names it. */
  private readonly writers = new Map<number, string>();
  private lastWriter: string | undefined;

  constructor(private readonly names?: CurrentNames) {}

  apply(entry: ProfileHistory): void {
    this.noteWriter(entry);
    if (isStandardEntry(entry)) {
      this.standard = pick(entry.snapshot ?? {}, [...STANDARD_FIELDS, 'Edited']);
      return;
    }
    if (!entry.list) return;
    // A contact element without its nested lists: they keep what their own entries say.
    if (isContactEntry(entry)) {
      const snapshot = entry.snapshot;
      const contact = this.contactList(entry.list)!;
      this.upsert(contact.elements, contact.rule, snapshot, (previous) =>
        contactElement(
          clone(snapshot),
          contact.preferences,
          contactPreferences(previous),
          previous?.Consents,
        ),
      );
      return;
    }
    const container = entry.container ? this.containerOf(entry.container) : undefined;
    if (entry.container && !container) return;
    // The list must be one the container (or the profile) holds.
    const rule = container ? container.rule.nested[entry.list] : PROFILE_COLLECTIONS[entry.list];
    if (!rule) return;
    if (isConsentEntry(entry)) {
      const snapshot = entry.snapshot;
      const items = container ? container.element.Consents : this.lists.Consents;
      this.upsert(items, rule, snapshot, () => clone(snapshot));
    } else if (isPreferenceEntry(entry)) {
      const snapshot = entry.snapshot;
      const items = container
        ? contactPreferences(container.element)
        : entry.list === 'ProfilePreferences'
          ? this.lists.ProfilePreferences
          : undefined;
      if (items) this.upsert(items, rule, snapshot, () => clone(snapshot));
    } else if (isCustomFieldEntry(entry) && !container) {
      const snapshot = entry.snapshot;
      this.upsert(this.lists.CustomFields, rule, snapshot, () => clone(snapshot));
    }
  }

  result(last: ProfileHistory): ProfileData {
    const created: Partial<Edited> = this.standard.Edited ?? {};
    const writer = this.writers.get(last.seq) ?? this.lastWriter ?? created.ModifiedBy;
    const standard = clone(this.standard);
    return {
      ...standard,
      // Always present on a profile's standard-fields entry (the stored data has them).
      IsActive: standard.IsActive!,
      CustomerType: standard.CustomerType!,
      PreserveConsents: standard.PreserveConsents!,
      PreservePreferences: standard.PreservePreferences!,
      // As the creation's entry stamped them (absent there: absent here too).
      Edited: {
        CreateDate: created.CreateDate!,
        CreatedBy: created.CreatedBy!,
        ModifiedDate: last.modifiedAt,
        ModifiedBy: writer!,
      },
      ...this.lists,
      Groups: [],
      ProfileTags: [],
      AlternateIds: [],
    };
  }

  private noteWriter(entry: ProfileHistory): void {
    // Any kind of item may carry the stamp: read by name.
    const stamp = fieldOf(entry.snapshot, 'Edited');
    const edited = typeof stamp === 'object' ? stamp : undefined;
    const writer = fieldOf(edited, 'ModifiedBy');
    if (
      typeof writer === 'string' &&
      fieldOf(edited, 'ModifiedDate') === entry.modifiedAt &&
      !this.writers.has(entry.seq)
    ) {
      this.writers.set(entry.seq, writer);
      this.lastWriter = writer;
    }
  }

  /** The contact element a nested item belongs to; a stand-in when history never had it. */
  private containerOf(
    container: HistoryContainer,
  ): { rule: ElementRule; element: ContactElement } | undefined {
    const { list, fields } = container;
    const contact = this.contactList(list);
    if (!contact) return undefined;
    return this.contactOf(contact.elements, contact.rule, fields, () =>
      contactElement(
        { ...(clone(fields) as ContactSnapshot), IsActive: true },
        contact.preferences,
      ),
    );
  }

  /** A contact list of the rebuilt profile: its elements, their rule and preference list. */
  private contactList(list: string): (ContactListOf & { elements: ContactElement[] }) | undefined {
    const contact = CONTACT_LISTS.find((candidate) => candidate.list === list);
    return contact && { ...contact, elements: this.lists[contact.list] };
  }

  /**
   * The element of `elements` named by `fields`, or a stand-in made of them (appended):
   * only what history says of it, its identity (no Edited stamp of its own).
   */
  private contactOf<E extends ContactElement>(
    elements: E[],
    rule: ElementRule,
    fields: ContactIdentity,
    standIn: () => E,
  ): { rule: ElementRule; element: E } {
    const key = rule.key(fields);
    let element = elements.find((candidate) => rule.key(candidate) === key);
    if (!element) {
      element = standIn();
      rule.derive?.(element);
      elements.push(element);
    }
    return { rule, element };
  }

  /** Replaces the item of the same key (in place), or appends it. */
  private upsert<E extends ElementBody>(
    items: E[],
    rule: ElementRule,
    snapshot: ElementBody,
    build: (previous: E | undefined) => E,
  ): void {
    const key = this.keyOf(rule);
    const wanted = key(snapshot);
    const index = items.findIndex((item) => key(item) === wanted);
    const element = build(index >= 0 ? items[index] : undefined);
    rule.derive?.(element);
    if (index >= 0) items[index] = element;
    else items.push(element);
  }

  /** The rule's key; a consent's by its type's current name when names are given. */
  private keyOf(rule: ElementRule): (item: ElementBody) => string {
    const names = this.names;
    if (rule !== consentRule || !names?.renamedConsentTypes) return (item) => rule.key(item);
    return (item) => {
      const value = fieldOf(item, 'ConsentType');
      const type = typeof value === 'string' ? value : '';
      return textKey(names.consentTypeName(type) ?? type);
    };
  }
}

/** A contact element: its own fields, then its nested lists (empty unless given). */
function contactElement(
  own: ContactSnapshot,
  preferenceList: ContactListOf['preferences'],
  preferences: StoredPreference[] = [],
  Consents: StoredConsent[] = [],
): ContactElement {
  return { ...own, [preferenceList]: preferences, Consents } as ContactElement;
}

/** The named fields of an item, those it has (copies). */
function pick<T extends object, K extends keyof T>(
  item: T,
  fields: readonly K[],
): Partial<Pick<T, K>> {
  const result: Partial<Pick<T, K>> = {};
  for (const field of fields) if (item[field] !== undefined) result[field] = clone(item[field]);
  return result;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}
