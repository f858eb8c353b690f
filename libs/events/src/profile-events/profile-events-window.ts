import { InvalidInputError } from '@app/shared';
import { isEventType } from '../domain/event-types';

/** How far back a profile's events can be read (the notes' MaxEventHistoryDays). */
export const MAX_EVENT_HISTORY_DAYS = 15;
const MAX_EVENT_HISTORY_MS = MAX_EVENT_HISTORY_DAYS * 24 * 60 * 60 * 1000;

export const PROFILE_EVENTS_LIMIT_DEFAULT = 100;
export const PROFILE_EVENTS_LIMIT_MAX = 1000;

/** What a retrieval of a profile's events asks, as checked. */
export interface ProfileEventsRequest {
  from: Date;
  to: Date;
  /** Absent: every type. */
  types?: Set<string>;
}

/**
 * The query of `GET .../Profile/{profileId}/Events` checked (docs/events.md, "Retrieval by
 * profile"): `StartAt` and `EndAt` ISO 8601 date-times (default: the last 15 days up to
 * now); a StartAt before the kept window is moved up to its start (the notes cap the
 * window at MaxEventHistoryDays, they do not refuse it), and an EndAt before it finds
 * nothing; StartAt after EndAt is refused; `EventType` one or more event
 * types, comma-separated. A value that does not parse is a 400 naming it.
 */
export function profileEventsRequest(
  query: { StartAt?: string; EndAt?: string; EventType?: string },
  now: Date,
): ProfileEventsRequest {
  const earliest = new Date(now.getTime() - MAX_EVENT_HISTORY_MS);
  const to = query.EndAt === undefined ? now : dateTime('EndAt', query.EndAt);
  const asked = query.StartAt === undefined ? undefined : dateTime('StartAt', query.StartAt);
  if (asked && asked > to) {
    throw new InvalidInputError(
      `StartAt ("${query.StartAt}") must not be after EndAt ("${query.EndAt ?? now.toISOString()}")`,
    );
  }
  // An EndAt before the kept window leaves it empty: no events, not an error.
  const from = asked && asked > earliest ? asked : earliest;
  if (query.EventType === undefined) return { from, to };
  const types = query.EventType.split(',').map((type) => type.trim());
  for (const type of types) {
    if (!isEventType(type)) {
      throw new InvalidInputError(
        `EventType "${type}" is not an event type (docs/events.md lists them)`,
      );
    }
  }
  return { from, to, types: new Set(types) };
}

function dateTime(field: string, value: string): Date {
  // A date-time with a zone (ISO 8601), as every date of the API is written.
  const parsed = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)
    ? new Date(value)
    : new Date(NaN);
  if (Number.isNaN(parsed.getTime())) {
    throw new InvalidInputError(
      `${field} must be an ISO 8601 date-time with a time zone (2026-11-26T10:00:00Z), got "${value}"`,
    );
  }
  return parsed;
}
