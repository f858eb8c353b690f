import { Webhook } from 'standardwebhooks';
import {
  type EventSubscription,
  findOverlap,
  findRepeatedSelection,
  newSecret,
  overlapMessage,
  SubscriptionList,
} from './event-subscription';

function subscription(
  subscriptionId: string,
  url: string,
  selections: EventSubscription['selections'],
): EventSubscription {
  const at = new Date('2025-01-01T00:00:00Z');
  return {
    subscriptionId,
    name: subscriptionId,
    description: null,
    localeId: null,
    url,
    selections,
    state: 'Paused',
    excludeData: false,
    deliverPausedEvents: false,
    alternateIdType: null,
    secret: newSecret(),
    previousSecret: null,
    previousSecretUntil: null,
    validationStatus: 'Pending',
    validationFailure: null,
    validatedAt: null,
    validationNonce: 'n',
    pausedSince: at,
    pausedReason: null,
    createdAt: at,
    createdBy: 'u',
    modifiedAt: at,
    modifiedBy: 'u',
  };
}

describe('findOverlap', () => {
  const held = [
    subscription('a', 'https://hooks.example.com/in', [
      { Entity: 'Profile', EventType: 'profile.created' },
      { Entity: 'Consent', EventType: '*' },
    ]),
    subscription('b', 'https://other.example.com/in', [{ Entity: 'Profile', EventType: '*' }]),
  ];

  it('finds the same Url (normalised) with the same event type', () => {
    const overlap = findOverlap(
      held,
      'HTTPS://HOOKS.example.com/in/',
      [{ Entity: 'Profile', EventType: 'profile.created' }],
      null,
    );
    expect(overlap).toEqual({
      subscriptionId: 'a',
      url: 'https://hooks.example.com/in',
      entity: 'Profile',
      eventType: 'profile.created',
      otherEventType: 'profile.created',
    });
    expect(overlapMessage(overlap!)).toContain('Url "https://hooks.example.com/in"');
    expect(overlapMessage(overlap!)).toContain('EventType "profile.created"');
  });

  it('finds * on either side', () => {
    expect(
      findOverlap(
        held,
        'https://hooks.example.com/in',
        [{ Entity: 'Profile', EventType: '*' }],
        null,
      )?.otherEventType,
    ).toBe('profile.created');
    expect(
      findOverlap(
        held,
        'https://hooks.example.com/in',
        [{ Entity: 'Consent', EventType: 'consent.added' }],
        null,
      )?.otherEventType,
    ).toBe('*');
  });

  it('lets another Url, another type or another entity pass', () => {
    const selection = [{ Entity: 'Profile', EventType: 'profile.created' }] as const;
    expect(findOverlap(held, 'https://hooks.example.com/other', [...selection], null)).toBeNull();
    expect(findOverlap(held, 'https://hooks.example.com/in?x=1', [...selection], null)).toBeNull();
    expect(
      findOverlap(
        held,
        'https://hooks.example.com/in',
        [{ Entity: 'Profile', EventType: 'profile.deleted' }],
        null,
      ),
    ).toBeNull();
    expect(
      findOverlap(
        held,
        'https://hooks.example.com/in',
        [{ Entity: 'Preference', EventType: '*' }],
        null,
      ),
    ).toBeNull();
  });

  it('leaves out the subscription being updated', () => {
    expect(
      findOverlap(
        held,
        'https://hooks.example.com/in',
        [{ Entity: 'Profile', EventType: 'profile.created' }],
        'a',
      ),
    ).toBeNull();
  });
});

describe('findRepeatedSelection', () => {
  it('finds two selections of one body covering the same events', () => {
    expect(
      findRepeatedSelection([
        { Entity: 'Profile', EventType: 'profile.created' },
        { Entity: 'Consent', EventType: 'consent.added' },
        { Entity: 'Profile', EventType: '*' },
      ]),
    ).toEqual([0, 2]);
    expect(
      findRepeatedSelection([
        { Entity: 'Profile', EventType: 'profile.created' },
        { Entity: 'Profile', EventType: 'profile.deleted' },
      ]),
    ).toBeNull();
  });
});

describe('SubscriptionList', () => {
  it('counts as changed only after a change', () => {
    const list = new SubscriptionList([subscription('a', 'https://h.example.com', [])]);
    expect(list.changed).toBe(false);
    expect(list.find('a')?.subscriptionId).toBe('a');
    expect(list.remove('zzz')).toBe(false);
    expect(list.changed).toBe(false);
    expect(list.remove('a')).toBe(true);
    expect(list.changed).toBe(true);
    expect(list.all).toEqual([]);
  });
});

describe('newSecret', () => {
  it('is whsec_ and base64 of 32 random bytes, and signs with the Standard Webhooks library', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(newSecret()).not.toBe(secret);
    const webhook = new Webhook(secret);
    const timestamp = new Date();
    const payload = '{"Type":"test"}';
    const signature = webhook.sign('msg_1', timestamp, payload);
    expect(
      webhook.verify(payload, {
        'webhook-id': 'msg_1',
        'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      }),
    ).toEqual({ Type: 'test' });
  });
});
