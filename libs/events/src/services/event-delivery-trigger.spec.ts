import type { Profile, ProfileEvent, SavedProfile } from '@app/profiles';
import { type JobQueue, type RedisService, type Settings, tenantKey } from '@app/shared';
import type { EventSubscription } from '../domain/event-subscription';
import { EventDeliveryTrigger } from './event-delivery-trigger.service';
import type { SubscriptionStore } from './subscription-store.service';

const AT = new Date('2026-01-01T00:00:00.000Z');

function subscription(
  subscriptionId: string,
  fields: Partial<EventSubscription> = {},
): EventSubscription {
  return {
    subscriptionId,
    name: subscriptionId,
    description: null,
    localeId: null,
    url: 'https://example.com/hook',
    selections: [{ Entity: 'Profile', EventType: '*' }],
    state: 'Active',
    excludeData: false,
    deliverPausedEvents: false,
    alternateIdType: null,
    secret: 'whsec_x',
    previousSecret: null,
    previousSecretUntil: null,
    validationStatus: 'Validated',
    validationFailure: null,
    validatedAt: AT,
    validationNonce: 'n',
    pausedSince: null,
    pausedReason: null,
    createdAt: AT,
    createdBy: 'u',
    modifiedAt: AT,
    modifiedBy: 'u',
    ...fields,
  } as EventSubscription;
}

function event(profileId: number, type: string): ProfileEvent {
  return {
    id: `c|${profileId}|1|0`,
    type,
    profileId,
    seq: 1,
    n: 0,
    at: AT.toISOString(),
    userId: 'u',
  };
}

/** A saved profile of client `c` with its events. */
function saved(profileId: number, events: ProfileEvent[]): SavedProfile {
  const profile: Profile = {
    _id: tenantKey('c', profileId),
    clientId: 'c',
    profileId,
    state: 'active',
    appliedSeq: 1,
  };
  return { profile, events };
}

/** The trigger over fakes that record what it queued and added, and its subscription reads. */
function trigger(subscriptions: EventSubscription[]) {
  const done: string[] = [];
  let reads = 0;
  const store = {
    current: async () => {
      reads++;
      return subscriptions;
    },
  } as unknown as SubscriptionStore;
  const queue = {
    enqueue: async (_job: unknown, data: { subscriptionId: string; profileId: number }) => {
      done.push(`deliver ${data.subscriptionId} ${data.profileId}`);
    },
  } as unknown as JobQueue;
  const redis = {
    client: {
      sadd: async (key: string, member: string) => {
        done.push(`sadd ${key} ${member}`);
      },
    },
  } as unknown as RedisService;
  const settings = { queuePrefix: 'p' } as Settings;
  return {
    trigger: new EventDeliveryTrigger(store, queue, redis, settings),
    done,
    reads: () => reads,
  };
}

describe('EventDeliveryTrigger', () => {
  const subscriptions = [
    subscription('active'),
    subscription('paused-for-later', {
      state: 'Paused',
      deliverPausedEvents: true,
      pausedSince: AT,
    }),
    subscription('paused', { state: 'Paused', pausedSince: AT }),
    subscription('consents-only', { selections: [{ Entity: 'Consent', EventType: '*' }] }),
  ];
  const batch = [
    saved(1, [event(1, 'profile.created')]),
    saved(2, [event(2, 'profile.created'), event(2, 'consent.added')]),
    saved(3, [event(3, 'contacts.email.added')]),
    saved(4, []),
  ];

  it('afterSave of many profiles does what it does for each alone, reading the subscriptions once', async () => {
    const one = trigger(subscriptions);
    for (const each of batch) await one.trigger.afterSave('c', [each]);
    const many = trigger(subscriptions);
    await many.trigger.afterSave('c', batch);
    expect([...many.done].sort()).toEqual([...one.done].sort());
    expect([...one.done].sort()).toEqual([
      'deliver active 1',
      'deliver active 2',
      'deliver consents-only 2',
      'sadd p:events-paused-profiles:c|paused-for-later|paused 1',
      'sadd p:events-paused-profiles:c|paused-for-later|paused 2',
    ]);
    expect(many.reads()).toBe(1);
  });

  it('afterSave queues nothing without subscriptions', async () => {
    const none = trigger([]);
    await none.trigger.afterSave('c', batch);
    expect(none.done).toEqual([]);
  });
});
