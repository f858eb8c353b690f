import type { EventSelection, EventSubscription } from './event-subscription';
import { EVENT_TYPES, type FilterKind, FILTER_KINDS, isEventType } from './event-types';

/** What a subscription's selections look at in an event (ProfileEvent, and its profile). */
export interface MatchableEvent {
  type: string;
  filterId?: string;
  consentType?: string;
  contactType?: string;
  customField?: string;
  /** The group names of the profile (what Groups narrows by). */
  groups?: readonly string[];
}

const key = (value: string) => value.trim().toLowerCase();

/** The event's values a narrowing list compares (none: the event has no such value). */
function valuesOf(event: MatchableEvent, kind: FilterKind): readonly string[] {
  switch (kind) {
    case 'Filters':
      return event.filterId !== undefined ? [event.filterId] : [];
    case 'ConsentTypes':
      return event.consentType !== undefined ? [event.consentType] : [];
    case 'ContactTypes':
      return event.contactType !== undefined ? [event.contactType] : [];
    case 'CustomFields':
      return event.customField !== undefined ? [event.customField] : [];
    case 'Groups':
      return event.groups ?? [];
  }
}

/**
 * Whether one selection takes the event: its entity's type (or `*` of the entity), and
 * every list it gives names one of the event's values (compared case-insensitively; the
 * list's wildcard takes all). An event without a value a list narrows by (a consent.added
 * under Filters) is not taken: the list asked for events of those values.
 */
export function selectionMatches(selection: EventSelection, event: MatchableEvent): boolean {
  if (!isEventType(event.type) || EVENT_TYPES[event.type] !== selection.Entity) return false;
  if (selection.EventType !== '*' && selection.EventType !== event.type) return false;
  for (const kind of Object.keys(FILTER_KINDS) as FilterKind[]) {
    const list = selection[kind];
    if (!list || list.includes(FILTER_KINDS[kind])) continue;
    const wanted = new Set(list.map(key));
    if (!valuesOf(event, kind).some((value) => wanted.has(key(value)))) return false;
  }
  return true;
}

/** Whether any selection of the subscription takes the event. */
export function subscriptionWants(
  subscription: Pick<EventSubscription, 'selections'>,
  event: MatchableEvent,
): boolean {
  return subscription.selections.some((selection) => selectionMatches(selection, event));
}

/**
 * Whether the subscription receives events now (Active and its handshake passed), and the
 * earliest acceptance time of the events it receives: since it last became so (a
 * subscription does not receive the events from before it was created, validated or
 * resumed).
 */
export function deliverableSince(subscription: EventSubscription): Date | null {
  if (subscription.state !== 'Active' || subscription.validationStatus !== 'Validated') return null;
  const active = subscription.activeSince ?? subscription.createdAt;
  const validated = subscription.validatedAt ?? active;
  return active > validated ? active : validated;
}

/** How far back a resumed subscription's paused period is delivered (the notes: 15 days). */
export const PAUSED_EVENTS_DAYS = 15;

/**
 * Since when a subscription set Active at `now` receives events: the start of its paused
 * period (at most PAUSED_EVENTS_DAYS back) when it delivers paused events, else now.
 */
export function activeSinceOnResume(
  subscription: Pick<EventSubscription, 'deliverPausedEvents' | 'pausedSince'>,
  now: Date,
): Date {
  if (!subscription.deliverPausedEvents || !subscription.pausedSince) return now;
  const earliest = new Date(now.getTime() - PAUSED_EVENTS_DAYS * 24 * 60 * 60 * 1000);
  return subscription.pausedSince > earliest ? subscription.pausedSince : earliest;
}
