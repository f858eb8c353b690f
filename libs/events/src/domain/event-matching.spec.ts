import type { EventSubscription } from './event-subscription';
import {
  activeSinceOnResume,
  deliverableSince,
  selectionMatches,
  subscriptionWants,
} from './event-matching';

describe('selectionMatches', () => {
  it("takes the entity's events of the type, or all of them with *", () => {
    const consentUpdated = { type: 'consent.updated', consentType: 'Terms' };
    expect(
      selectionMatches({ Entity: 'Consent', EventType: 'consent.updated' }, consentUpdated),
    ).toBe(true);
    expect(selectionMatches({ Entity: 'Consent', EventType: '*' }, consentUpdated)).toBe(true);
    expect(
      selectionMatches({ Entity: 'Consent', EventType: 'consent.added' }, consentUpdated),
    ).toBe(false);
    expect(selectionMatches({ Entity: 'Preference', EventType: '*' }, consentUpdated)).toBe(false);
  });

  it("narrows by the lists, case-insensitively, with each list's wildcard taking all", () => {
    const event = { type: 'consent.updated', consentType: 'Terms', filterId: 'F1' };
    const consent = (ConsentTypes: string[]) => ({
      Entity: 'Consent' as const,
      EventType: '*' as const,
      ConsentTypes,
    });
    expect(selectionMatches(consent(['terms']), event)).toBe(true);
    expect(selectionMatches(consent(['Mail']), event)).toBe(false);
    expect(selectionMatches(consent(['AllConsents']), event)).toBe(true);
    // A list the event has no value for: not taken.
    expect(
      selectionMatches(
        { Entity: 'Consent', EventType: '*', Filters: ['F2'] },
        { type: 'consent.added', consentType: 'Terms' },
      ),
    ).toBe(false);
    expect(
      selectionMatches(
        { Entity: 'Contacts', EventType: '*', ContactTypes: ['Email'] },
        { type: 'contacts.email.updated', contactType: 'Email' },
      ),
    ).toBe(true);
    expect(
      selectionMatches(
        { Entity: 'Profile', EventType: '*', Groups: ['VIP'] },
        { type: 'profile.updated', groups: ['vip', 'x'] },
      ),
    ).toBe(true);
    expect(
      selectionMatches(
        { Entity: 'Profile', EventType: '*', Groups: ['VIP'] },
        { type: 'profile.updated', groups: [] },
      ),
    ).toBe(false);
  });

  it('a subscription takes what any of its selections takes', () => {
    const subscription = {
      selections: [
        { Entity: 'Profile' as const, EventType: 'profile.created' as const },
        { Entity: 'Consent' as const, EventType: 'consent.deactivated' as const },
      ],
    };
    expect(subscriptionWants(subscription, { type: 'consent.deactivated' })).toBe(true);
    expect(subscriptionWants(subscription, { type: 'profile.updated' })).toBe(false);
  });
});

describe('deliverableSince', () => {
  const base = {
    state: 'Active',
    validationStatus: 'Validated',
    createdAt: new Date('2026-11-01T00:00:00Z'),
    validatedAt: new Date('2026-11-01T00:00:05Z'),
    activeSince: new Date('2026-11-01T00:00:00Z'),
  } as EventSubscription;

  it('from when it was validated or became Active, whichever is later', () => {
    expect(deliverableSince(base)).toEqual(new Date('2026-11-01T00:00:05Z'));
    const resumed = { ...base, activeSince: new Date('2026-11-20T00:00:00Z') };
    expect(deliverableSince(resumed)).toEqual(new Date('2026-11-20T00:00:00Z'));
  });

  it('never while Paused or not validated', () => {
    expect(deliverableSince({ ...base, state: 'Paused' })).toBeNull();
    expect(deliverableSince({ ...base, validationStatus: 'Pending' })).toBeNull();
    expect(deliverableSince({ ...base, validationStatus: 'Failed' })).toBeNull();
  });
});

describe('activeSinceOnResume', () => {
  const now = new Date('2026-11-26T00:00:00Z');
  it('now, unless the paused period is delivered: then from the pause, 15 days back at most', () => {
    const pausedSince = new Date('2026-11-20T00:00:00Z');
    expect(activeSinceOnResume({ deliverPausedEvents: false, pausedSince }, now)).toEqual(now);
    expect(activeSinceOnResume({ deliverPausedEvents: true, pausedSince }, now)).toEqual(
      pausedSince,
    );
    expect(
      activeSinceOnResume(
        { deliverPausedEvents: true, pausedSince: new Date('2026-01-01T00:00:00Z') },
        now,
      ),
    ).toEqual(new Date('2026-11-11T00:00:00Z'));
    expect(activeSinceOnResume({ deliverPausedEvents: true, pausedSince: null }, now)).toEqual(now);
  });
});
