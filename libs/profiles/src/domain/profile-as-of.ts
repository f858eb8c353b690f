import { textKey } from '@app/shared';
import { consentRule, type ElementRule, PROFILE_COLLECTIONS } from './element-rules';
import type { CurrentNames } from './current-names';
import type { ProfileData } from './profile-data.schema';
import { CONTACT_LISTS, STANDARD_FIELDS } from './profile-history';
import type { HistorySnapshot, ProfileHistory } from './profile-history.schema';

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

/** The lists of the profile itself a rebuild fills (the rest is not in history). */
const REBUILT_LISTS = [
  'Consents',
  'CustomFields',
  'Addresses',
  'Emails',
  'PhoneNumbers',
  'ProfilePreferences',
] as const;

class Rebuild {
  private standard: HistorySnapshot = {};
  private readonly lists: Record<string, HistorySnapshot[]> = Object.fromEntries(
    REBUILT_LISTS.map((list) => [list, []]),
  );
  /** The writer of each replayed write, as an entry's Edited stamp names it. */
  private readonly writers = new Map<number, string>();
  private lastWriter: string | undefined;

  constructor(private readonly names?: CurrentNames) {}

  apply(entry: ProfileHistory): void {
    const snapshot = entry.snapshot ?? {};
    this.noteWriter(entry, snapshot);
    if (entry.category === 'standard' && !entry.list) {
      this.standard = pick(snapshot, [...STANDARD_FIELDS, 'Edited']);
      return;
    }
    if (!entry.list) return;
    const contact = CONTACT_LISTS.find(({ list }) => list === entry.list);
    if (contact && !entry.container) {
      // A contact element without its nested lists: they keep what their own entries say.
      const nested = Object.keys(contact.rule.nested);
      this.upsert(this.lists[contact.list], contact.rule, snapshot, (previous) => {
        const element = clone(snapshot);
        for (const list of nested) element[list] = previous?.[list] ?? [];
        return element;
      });
      return;
    }
    const container = entry.container ? this.containerOf(entry.container) : undefined;
    if (entry.container && !container) return;
    const rule = container ? container.rule.nested[entry.list] : PROFILE_COLLECTIONS[entry.list];
    const owner = container ? container.element : this.lists;
    if (!rule || !(container || entry.list in this.lists)) return;
    if (!Array.isArray(owner[entry.list])) owner[entry.list] = [];
    this.upsert(owner[entry.list] as HistorySnapshot[], rule, snapshot, () => clone(snapshot));
  }

  result(last: ProfileHistory): ProfileData {
    const created = (this.standard.Edited ?? {}) as HistorySnapshot;
    const writer = this.writers.get(last.seq) ?? this.lastWriter ?? created.ModifiedBy;
    const data: HistorySnapshot = {
      ...clone(this.standard),
      Edited: {
        CreateDate: created.CreateDate,
        CreatedBy: created.CreatedBy,
        ModifiedDate: last.modifiedAt,
        ModifiedBy: writer,
      },
      ...this.lists,
      Groups: [],
      ProfileTags: [],
      AlternateIds: [],
    };
    return data as unknown as ProfileData;
  }

  private noteWriter(entry: ProfileHistory, snapshot: HistorySnapshot): void {
    const edited = snapshot.Edited as HistorySnapshot | undefined;
    if (
      edited &&
      typeof edited.ModifiedBy === 'string' &&
      edited.ModifiedDate === entry.modifiedAt &&
      !this.writers.has(entry.seq)
    ) {
      this.writers.set(entry.seq, edited.ModifiedBy);
      this.lastWriter = edited.ModifiedBy;
    }
  }

  /** The contact element a nested item belongs to; a stand-in when history never had it. */
  private containerOf(container: NonNullable<ProfileHistory['container']>) {
    const contact = CONTACT_LISTS.find(({ list }) => list === container.list);
    if (!contact) return undefined;
    const elements = this.lists[contact.list];
    const key = contact.rule.key(container.fields);
    let element = elements.find((candidate) => contact.rule.key(candidate) === key);
    if (!element) {
      element = { ...clone(container.fields), IsActive: true };
      for (const list of Object.keys(contact.rule.nested)) element[list] = [];
      contact.rule.derive?.(element);
      elements.push(element);
    }
    return { rule: contact.rule, element };
  }

  /** Replaces the item of the same key (in place), or appends it. */
  private upsert(
    items: HistorySnapshot[],
    rule: ElementRule,
    snapshot: HistorySnapshot,
    build: (previous: HistorySnapshot | undefined) => HistorySnapshot,
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
  private keyOf(rule: ElementRule): (item: HistorySnapshot) => string {
    const names = this.names;
    if (rule !== consentRule || !names?.renamedConsentTypes) return (item) => rule.key(item);
    return (item) => {
      const type = typeof item.ConsentType === 'string' ? item.ConsentType : '';
      return textKey(names.consentTypeName(type) ?? type);
    };
  }
}

function pick(item: HistorySnapshot, fields: string[]): HistorySnapshot {
  const result: HistorySnapshot = {};
  for (const field of fields) if (item[field] !== undefined) result[field] = clone(item[field]);
  return result;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}
