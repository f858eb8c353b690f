import {
  belongsToEntity,
  EVENT_ENTITIES,
  EVENT_TYPE_NAMES,
  EVENT_TYPES,
  eventKeysOverlap,
  eventTypesOf,
  SUBSCRIBED_EVENT_TYPES,
} from './event-types';

describe('event types', () => {
  it('lists the 28 event types of the notes, profile.merged, consent.confirmed and preference.confirmed, each under its entity', () => {
    expect(EVENT_TYPE_NAMES).toHaveLength(31);
    expect(eventTypesOf('Profile')).toEqual([
      'profile.created',
      'profile.replaced',
      'profile.deactivated',
      'profile.reactivated',
      'profile.deleted',
      'profile.updated',
      'profile.merged',
    ]);
    expect(eventTypesOf('Preference')).toEqual([
      'preference.added',
      'preference.updated',
      'preference.archived',
      'preference.confirmed',
    ]);
    expect(eventTypesOf('Consent')).toHaveLength(9);
    expect(eventTypesOf('Contacts')).toHaveLength(6);
    expect(eventTypesOf('StandardField')).toHaveLength(4);
    expect(eventTypesOf('CustomField')).toEqual(['customfield.updated']);
    expect(SUBSCRIBED_EVENT_TYPES).toContain('*');
  });

  it('names each type after its entity', () => {
    const prefix: Record<string, string> = {
      Profile: 'profile.',
      Preference: 'preference.',
      Consent: 'consent.',
      Contacts: 'contacts.',
      StandardField: 'standardfield.',
      CustomField: 'customfield.',
    };
    for (const [type, entity] of Object.entries(EVENT_TYPES)) {
      expect(type.startsWith(prefix[entity])).toBe(true);
    }
    expect(new Set(Object.values(EVENT_TYPES))).toEqual(new Set(EVENT_ENTITIES));
  });

  it('takes an event type only under its entity, and * under any', () => {
    expect(belongsToEntity('profile.created', 'Profile')).toBe(true);
    expect(belongsToEntity('consent.filterassociation.updated', 'Consent')).toBe(true);
    expect(belongsToEntity('consent.added', 'Profile')).toBe(false);
    expect(belongsToEntity('contacts.email.updated', 'StandardField')).toBe(false);
    expect(belongsToEntity('profile.unknown', 'Profile')).toBe(false);
    expect(belongsToEntity('toString', 'Profile')).toBe(false);
    for (const entity of EVENT_ENTITIES) expect(belongsToEntity('*', entity)).toBe(true);
  });
});

describe('eventKeysOverlap', () => {
  it('overlaps on the same type of the same entity', () => {
    expect(
      eventKeysOverlap(
        { Entity: 'Profile', EventType: 'profile.created' },
        { Entity: 'Profile', EventType: 'profile.created' },
      ),
    ).toBe(true);
  });

  it('overlaps when either side is * of the same entity', () => {
    expect(
      eventKeysOverlap(
        { Entity: 'Profile', EventType: '*' },
        { Entity: 'Profile', EventType: 'profile.deleted' },
      ),
    ).toBe(true);
    expect(
      eventKeysOverlap(
        { Entity: 'Consent', EventType: 'consent.added' },
        { Entity: 'Consent', EventType: '*' },
      ),
    ).toBe(true);
  });

  it('does not overlap on other types or other entities', () => {
    expect(
      eventKeysOverlap(
        { Entity: 'Profile', EventType: 'profile.created' },
        { Entity: 'Profile', EventType: 'profile.deleted' },
      ),
    ).toBe(false);
    expect(
      eventKeysOverlap(
        { Entity: 'Profile', EventType: '*' },
        { Entity: 'Consent', EventType: '*' },
      ),
    ).toBe(false);
  });
});
