import { profileEventKey } from '../keys';
import { alternateIdRule } from './element-rules';
import { type DescribedWrite, describeWrite } from './profile-history';
import type { HistoryContainer } from './profile-history.schema';
import type { ProfileRules } from './profile-rules';
import { PREFERENCE_CONFIRM_WRITE } from './confirmation-writes';
import type { ProfileWrite } from './profile-write.schema';
import type { Profile } from './profile.schema';
import { elementsOf, fieldOf } from './profile-shape';
import type { StoredAlternateId } from './profile-data.schema';

/**
 * An event's Data (and PreviousData): a history snapshot, the profile's data as a plain
 * copy (profile.*), or the few fields an event names; a JSON object whose fields the
 * event's type says, read here by name (fieldOf).
 */
type Item = object;

/** The contact type of each contact list (what a subscription's ContactTypes names). */
const CONTACT_TYPES: Record<string, ProfileEvent['contactType']> = {
  Emails: 'Email',
  PhoneNumbers: 'Phone',
  Addresses: 'Address',
  EmailPreferences: 'Email',
  PhonePreferences: 'Phone',
  AddressPreferences: 'Address',
};

/** The contact lists' `*.updated` events. */
const CONTACT_EVENTS: Record<string, string> = {
  Emails: 'contacts.email.updated',
  PhoneNumbers: 'contacts.phone.updated',
  Addresses: 'contacts.address.updated',
};

/** Standard fields with an event of their own (the notes), by where they sit in the data. */
const STANDARD_FIELD_EVENTS: { path: [string] | [string, string]; type: string }[] = [
  { path: ['DefaultLocale'], type: 'standardfield.defaultlocale.updated' },
  { path: ['CustomerName', 'FirstName'], type: 'standardfield.firstname.updated' },
  { path: ['CustomerName', 'MiddleName'], type: 'standardfield.middlename.updated' },
  { path: ['CustomerName', 'LastName'], type: 'standardfield.lastname.updated' },
  { path: ['CustomerType'], type: 'contacts.customertype.updated' },
];

/**
 * One event of an applied write (docs/events.md): what changed, as the item is after the
 * write (`data`) and before it (`previousData`, on updates): an item as history stores it,
 * the whole profile (profile.*) as stored (ProfileData; readers map it to the GET shape). `id` is
 * `<clientId>|<profileId>|<seq>|<n>`, derived from the write as history's entries are, so a
 * write recorded again after a crash records the same events: none lost, none twice.
 */
export interface ProfileEvent {
  id: string;
  type: string;
  profileId: number;
  /** The write's sequence number: a profile's events are in (seq, n) order. */
  seq: number;
  n: number;
  /** The write's acceptance time (ISO 8601). */
  at: string;
  userId: string;
  /** The contact element the item belongs to (a contact's preference or consent). */
  container?: HistoryContainer;
  /** What subscription filters compare (docs/events.md, "Filters"). */
  filterId?: string;
  consentType?: string;
  contactType?: 'Email' | 'Phone' | 'Address';
  customField?: string;
  data?: Item;
  previousData?: Item;
}

/**
 * The events of one applied write, in a fixed order: the profile's own event first
 * (created, replaced, updated, deleted, then deactivated or reactivated), then one per
 * changed item in history order, then the alternate ids. A create shows the new profile
 * whole in `profile.created`, plus the `*.added` events of its consents, preferences and
 * alternate ids (what a subscriber to those hears of a sign-up); its contacts and fields
 * have no `*.updated` event. A write that changes nothing has no event. Pure.
 */
export function profileEvents(
  before: Profile,
  after: Profile,
  write: ProfileWrite,
  rules: ProfileRules,
  // The write's history diff, when the caller has it already (the worker records both).
  described?: DescribedWrite,
): ProfileEvent[] {
  const events: Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] = [];
  const existed = before.state === 'active';
  if (after.state === 'deleted') {
    if (existed) events.push({ type: 'profile.deleted', data: { ProfileId: after.profileId } });
    return numbered(events, write);
  }
  if (after.state !== 'active' || !after.data) return [];
  const created = !existed;
  const { entries, previous } = described ?? describeWrite(before, after, write, rules);
  const items: typeof events = [];
  entries.forEach((entry, k) => {
    items.push(
      ...itemEvents(
        entry.list,
        entry.category,
        entry.container,
        entry.snapshot,
        previous[k],
        created,
        write.kind,
      ),
    );
  });
  items.push(
    ...alternateIdEvents(created ? [] : before.data?.AlternateIds, after.data.AlternateIds),
  );
  if (created) {
    events.push({ type: 'profile.created', data: { ...after.data } });
  } else if (entries.length || items.length) {
    events.push({
      type: write.kind === 'overwrite' ? 'profile.replaced' : 'profile.updated',
      data: { ...after.data },
      previousData: before.data && { ...before.data },
    });
    const wasActive = before.data?.IsActive !== false;
    const isActive = after.data.IsActive !== false;
    if (wasActive !== isActive) {
      events.push({
        type: isActive ? 'profile.reactivated' : 'profile.deactivated',
        data: { IsActive: isActive },
        previousData: { IsActive: wasActive },
      });
    }
  }
  return numbered([...events, ...items], write);
}

function numbered(
  events: Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[],
  write: ProfileWrite,
): ProfileEvent[] {
  return events.map((event, n) => ({
    id: profileEventKey(write.clientId, write.profileId, write.seq, n),
    profileId: write.profileId,
    seq: write.seq,
    n,
    at: write.acceptedAt.toISOString(),
    userId: write.userId,
    ...event,
  }));
}

/** The events of one changed item (one history entry). */
function itemEvents(
  list: string | undefined,
  category: string,
  container: HistoryContainer | undefined,
  data: Item,
  previousData: Item | undefined,
  created: boolean,
  writeKind: ProfileWrite['kind'],
): Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] {
  const deactivated =
    fieldOf(data, 'IsActive') === false && fieldOf(previousData, 'IsActive') !== false;
  const contactType = CONTACT_TYPES[container?.list ?? list ?? ''];
  const about = {
    ...(container ? { container } : {}),
    ...(contactType ? { contactType } : {}),
    data,
    ...(previousData ? { previousData } : {}),
  };
  if (list === 'Consents') {
    const consentType = text(fieldOf(data, 'ConsentType'));
    const kind = !previousData ? 'added' : deactivated ? 'deactivated' : 'updated';
    const type = container
      ? `consent.elementassociation.${kind === 'added' ? 'created' : kind}`
      : `consent.${kind}`;
    const events = [{ type, consentType, ...about }];
    // The consent-confirm write applied a held grant (double opt-in): its own event too.
    if (writeKind === 'consent-confirm' && newlyConfirmed(data, previousData))
      events.push({ type: 'consent.confirmed', consentType, ...about });
    return events;
  }
  if (list?.endsWith('Preferences')) {
    const filterId = text(fieldOf(data, 'FilterId'));
    const kind = !previousData ? 'added' : deactivated ? 'archived' : 'updated';
    return [
      { type: `preference.${kind}`, filterId, ...about },
      // The preference-confirm write applied a held opt-in (double opt-in): its own event too.
      ...(writeKind === PREFERENCE_CONFIRM_WRITE && newlyConfirmed(data, previousData)
        ? [{ type: 'preference.confirmed', filterId, ...about }]
        : []),
      ...filterAssociationEvents(data, previousData, filterId, contactType),
    ];
  }
  if (created) return []; // the profile's fields and contacts are in profile.created
  if (category === 'standard') return standardFieldEvents(data, previousData);
  if (list === 'CustomFields') {
    return [{ type: 'customfield.updated', customField: text(fieldOf(data, 'Name')), ...about }];
  }
  if (list && CONTACT_EVENTS[list]) return [{ type: CONTACT_EVENTS[list], ...about }];
  return [];
}

/** A preference's consent associations created or changed by the write. */
function filterAssociationEvents(
  data: Item,
  previousData: Item | undefined,
  filterId: string | undefined,
  contactType: ProfileEvent['contactType'],
): Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] {
  const byType = (item: Item | undefined) =>
    new Map(
      elementsOf(fieldOf(item, 'ConsentAssociations')).map((association) => [
        text(fieldOf(association, 'ConsentType'))?.toLowerCase() ?? '',
        association,
      ]),
    );
  const was = byType(previousData);
  return [...byType(data)].flatMap(([key, association]) => {
    const old = was.get(key);
    if (old && JSON.stringify(old) === JSON.stringify(association)) return [];
    return [
      {
        type: old ? 'consent.filterassociation.updated' : 'consent.filterassociation.created',
        filterId,
        consentType: text(fieldOf(association, 'ConsentType')),
        ...(contactType ? { contactType } : {}),
        data: { FilterId: fieldOf(data, 'FilterId'), ...association },
        ...(old ? { previousData: { FilterId: fieldOf(data, 'FilterId'), ...old } } : {}),
      },
    ];
  });
}

/** The standard fields with an event of their own that the write changed. */
function standardFieldEvents(
  data: Item,
  previousData: Item | undefined,
): Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] {
  return STANDARD_FIELD_EVENTS.flatMap(({ path, type }) => {
    const now = valueAt(data, path);
    const was = valueAt(previousData, path);
    if ((now ?? null) === (was ?? null)) return [];
    const field = path[path.length - 1];
    return [{ type, data: { [field]: now ?? null }, previousData: { [field]: was ?? null } }];
  });
}

/** Alternate ids added (`contacts.alternateid.added`) and changed or removed (`.updated`). */
function alternateIdEvents(
  before: readonly StoredAlternateId[] | undefined,
  after: readonly StoredAlternateId[] | undefined,
): Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] {
  const was = new Map(asItems(before).map((pair) => [alternateIdRule.key(pair), pair]));
  const now = asItems(after);
  const kept = new Set(now.map((pair) => alternateIdRule.key(pair)));
  const pairOf = (pair: StoredAlternateId) => ({
    AlternateIdType: pair.AlternateIdType,
    AlternateId: pair.AlternateId,
    IsActive: pair.IsActive !== false,
  });
  const events: Omit<ProfileEvent, 'id' | 'n' | 'profileId' | 'seq' | 'at' | 'userId'>[] = [];
  for (const pair of now) {
    const old = was.get(alternateIdRule.key(pair));
    if (!old) events.push({ type: 'contacts.alternateid.added', data: pairOf(pair) });
    else if ((old.IsActive !== false) !== (pair.IsActive !== false)) {
      events.push({
        type: 'contacts.alternateid.updated',
        data: pairOf(pair),
        previousData: pairOf(old),
      });
    }
  }
  for (const [key, old] of was) {
    if (!kept.has(key) && old.IsActive !== false) {
      events.push({
        type: 'contacts.alternateid.updated',
        data: { ...pairOf(old), IsActive: false },
        previousData: pairOf(old),
      });
    }
  }
  return events;
}

function valueAt(item: Item | undefined, path: string[]): unknown {
  let value: unknown = item;
  for (const field of path) value = typeof value === 'object' ? fieldOf(value, field) : undefined;
  return value;
}

/** The confirmation id a consent's or preference's double opt-in evidence names. */
function asItems<E>(value: readonly E[] | undefined): readonly E[] {
  return Array.isArray(value) ? value : [];
}

function linkIdOf(item: Item | undefined): string | undefined {
  return text(valueAt(item, ['Confirmation', 'LinkId']));
}

/** Whether the item now carries the evidence of a confirmation it did not carry before. */
function newlyConfirmed(data: Item, previousData: Item | undefined): boolean {
  const confirmation = linkIdOf(data);
  return confirmation !== undefined && confirmation !== linkIdOf(previousData);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
}
