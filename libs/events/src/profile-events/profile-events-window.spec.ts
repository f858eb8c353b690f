import { InvalidInputError } from '@app/shared';
import { MAX_EVENT_HISTORY_DAYS, profileEventsRequest } from './profile-events-window';

const NOW = new Date('2026-11-26T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

describe('profileEventsRequest', () => {
  it('defaults to the last 15 days up to now, every type', () => {
    expect(profileEventsRequest({}, NOW)).toEqual({
      from: new Date(NOW.getTime() - MAX_EVENT_HISTORY_DAYS * DAY),
      to: NOW,
    });
  });

  it('moves a StartAt before the kept window up to its start, and keeps one inside it', () => {
    const old = profileEventsRequest({ StartAt: '2026-01-01T00:00:00Z' }, NOW);
    expect(old.from).toEqual(new Date(NOW.getTime() - MAX_EVENT_HISTORY_DAYS * DAY));
    const recent = profileEventsRequest(
      { StartAt: '2026-11-25T00:00:00+01:00', EndAt: '2026-11-26T00:00:00Z' },
      NOW,
    );
    expect(recent.from).toEqual(new Date('2026-11-24T23:00:00Z'));
    expect(recent.to).toEqual(new Date('2026-11-26T00:00:00Z'));
  });

  it('an EndAt before the kept window: an empty window, not an error', () => {
    const { from, to } = profileEventsRequest({ EndAt: '2000-01-01T00:00:00Z' }, NOW);
    expect(from.getTime()).toBeGreaterThan(to.getTime());
  });

  it('takes event types, comma-separated', () => {
    expect(
      profileEventsRequest({ EventType: 'consent.updated, profile.created' }, NOW).types,
    ).toEqual(new Set(['consent.updated', 'profile.created']));
  });

  it.each([
    [
      { StartAt: 'yesterday' },
      'StartAt must be an ISO 8601 date-time with a time zone (2026-11-26T10:00:00Z), got "yesterday"',
    ],
    [
      { EndAt: '2026-11-26' },
      'EndAt must be an ISO 8601 date-time with a time zone (2026-11-26T10:00:00Z), got "2026-11-26"',
    ],
    [{ EndAt: '2026-13-40T00:00:00Z' }, 'got "2026-13-40T00:00:00Z"'],
    [
      { StartAt: '2026-11-26T00:00:00Z', EndAt: '2026-11-25T00:00:00Z' },
      'StartAt ("2026-11-26T00:00:00Z") must not be after EndAt ("2026-11-25T00:00:00Z")',
    ],
    [
      { EventType: 'consent.updated,consent.withdrawn' },
      'EventType "consent.withdrawn" is not an event type',
    ],
  ])('refuses %j naming the field and value', (query, message) => {
    expect(() => profileEventsRequest(query, NOW)).toThrow(InvalidInputError);
    expect(() => profileEventsRequest(query, NOW)).toThrow(message);
  });
});
