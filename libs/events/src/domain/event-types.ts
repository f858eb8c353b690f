/*
 * The data event types of the notes (section 7) and the entity each belongs to. A
 * subscription names an Entity and an EventType of it, or `*` for every event type of the
 * entity. Pure code: the DTOs and the handlers both read these lists.
 */

export const EVENT_ENTITIES = [
  'Profile',
  'Preference',
  'Consent',
  'Contacts',
  'StandardField',
  'CustomField',
] as const;

export type EventEntity = (typeof EVENT_ENTITIES)[number];

/** Every event type of every entity. */
export const ALL_EVENT_TYPES_OF_ENTITY = '*';

/** Each event type with its entity (the notes' list; "profile.updated full" is a variant of profile.updated, not a type). */
export const EVENT_TYPES = {
  'profile.created': 'Profile',
  'profile.replaced': 'Profile',
  'profile.deactivated': 'Profile',
  'profile.reactivated': 'Profile',
  'profile.deleted': 'Profile',
  'profile.updated': 'Profile',
  // A merge (docs/profile-merge.md): on the survivor, data {ProfileId, AbsorbedProfileId, ReasonCode, MergedAt}.
  'profile.merged': 'Profile',
  'preference.added': 'Preference',
  'preference.updated': 'Preference',
  'preference.archived': 'Preference',
  // A held opt-in confirmed from the person's mailbox (double opt-in of a program,
  // docs/double-opt-in.md): data the preference with its Confirmation.
  'preference.confirmed': 'Preference',
  'consent.added': 'Consent',
  'consent.updated': 'Consent',
  'consent.deactivated': 'Consent',
  'consent.elementassociation.created': 'Consent',
  'consent.elementassociation.updated': 'Consent',
  'consent.elementassociation.deactivated': 'Consent',
  'consent.filterassociation.created': 'Consent',
  'consent.filterassociation.updated': 'Consent',
  // A held grant confirmed from the person's mailbox (double opt-in, docs/double-opt-in.md):
  // data the consent with its Confirmation (LinkId: the confirmation id, ConfirmedDate).
  'consent.confirmed': 'Consent',
  'contacts.alternateid.added': 'Contacts',
  'contacts.phone.updated': 'Contacts',
  'contacts.email.updated': 'Contacts',
  'contacts.address.updated': 'Contacts',
  'contacts.alternateid.updated': 'Contacts',
  'contacts.customertype.updated': 'Contacts',
  'standardfield.defaultlocale.updated': 'StandardField',
  'standardfield.firstname.updated': 'StandardField',
  'standardfield.middlename.updated': 'StandardField',
  'standardfield.lastname.updated': 'StandardField',
  'customfield.updated': 'CustomField',
} as const satisfies Record<string, EventEntity>;

export type EventType = keyof typeof EVENT_TYPES;

/** What a subscription's EventType may be: an event type, or `*`. */
export type SubscribedEventType = EventType | typeof ALL_EVENT_TYPES_OF_ENTITY;

export const EVENT_TYPE_NAMES = Object.keys(EVENT_TYPES) as EventType[];

/** The values the EventType field takes (the event types and the wildcard). */
export const SUBSCRIBED_EVENT_TYPES: readonly SubscribedEventType[] = [
  ...EVENT_TYPE_NAMES,
  ALL_EVENT_TYPES_OF_ENTITY,
];

export function isEventType(value: string): value is EventType {
  return Object.prototype.hasOwnProperty.call(EVENT_TYPES, value);
}

/** The event types of an entity, in the notes' order. */
export function eventTypesOf(entity: EventEntity): EventType[] {
  return EVENT_TYPE_NAMES.filter((type) => EVENT_TYPES[type] === entity);
}

/** Whether `eventType` (an event type or `*`) may be subscribed to under `entity`. */
export function belongsToEntity(eventType: string, entity: EventEntity): boolean {
  if (eventType === ALL_EVENT_TYPES_OF_ENTITY) return true;
  return isEventType(eventType) && EVENT_TYPES[eventType] === entity;
}

/** An (Entity, EventType) pair of a subscription. */
export interface EventKey {
  Entity: EventEntity;
  EventType: SubscribedEventType;
}

/**
 * Whether two pairs can receive the same event: the same entity, and the same type or `*`
 * on either side (the notes' 409 for the same URL subscribed to the same event twice).
 */
export function eventKeysOverlap(a: EventKey, b: EventKey): boolean {
  if (a.Entity !== b.Entity) return false;
  return (
    a.EventType === b.EventType ||
    a.EventType === ALL_EVENT_TYPES_OF_ENTITY ||
    b.EventType === ALL_EVENT_TYPES_OF_ENTITY
  );
}

/** The narrowing lists of a subscription, each with the value that stands for "all". */
export const FILTER_KINDS = {
  Filters: 'AllFilters',
  ConsentTypes: 'AllConsents',
  ContactTypes: 'AllContactTypes',
  Groups: 'AllGroups',
  CustomFields: 'AllCustomFields',
} as const;

export type FilterKind = keyof typeof FILTER_KINDS;

export const FILTER_KIND_NAMES = Object.keys(FILTER_KINDS) as FilterKind[];

/** The contact kinds ContactTypes names (besides its wildcard). */
export const CONTACT_TYPES = ['Email', 'Phone', 'Address'] as const;

/**
 * The entities whose events a kind narrows (the notes pair each list with an entity but
 * state no table; this one is ours, docs/events.md). Groups narrows by the profile's group
 * membership, which every event has. A kind given for another entity is refused (400):
 * it would narrow nothing.
 */
export const FILTER_KIND_ENTITIES: Record<FilterKind, readonly EventEntity[]> = {
  Filters: ['Preference', 'Consent'],
  ConsentTypes: ['Consent'],
  ContactTypes: ['Contacts'],
  Groups: EVENT_ENTITIES,
  CustomFields: ['CustomField'],
};
