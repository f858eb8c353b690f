import { defineJob, type JobDefinition, type TracedPayload } from '@app/shared';

/**
 * The queue every job of the events module waits in (a Bull queue and a fair queue of its
 * own): the work that talks to subscribers' receivers, which a worker can serve apart from
 * the profiles' writes (the lifted events worker, apps/events-worker; docs/scaling.md).
 */
export const EVENTS_QUEUE = 'events';

/** What an event-subscription-validate job carries: the handshake and which attempt this is. */
export interface ValidateEventSubscriptionPayload {
  clientId: string;
  subscriptionId: string;
  /** From 1: the first attempt, then one per EVENTS_HANDSHAKE_RETRY_DELAYS_MS entry. */
  attempt: number;
  /**
   * The handshake's nonce (the subscription's validationNonce when it was queued): a job of
   * an older handshake (the Url changed, Validate ran again) ends without changing anything.
   */
  nonce: string;
}

/** POST a challenge to a subscription's Url and record whether it answered it. */
export const VALIDATE_EVENT_SUBSCRIPTION = defineJob<ValidateEventSubscriptionPayload>({
  name: 'event-subscription-validate',
  tenantOf: ({ clientId }) => clientId,
  queue: EVENTS_QUEUE,
});

/**
 * What an event-delivery job carries: whose events go to which subscription; with tracing
 * on, also the context of the span that queued it (`trace`: the apply's save, or the
 * delivery before a retry).
 */
export interface DeliverProfileEventsPayload extends TracedPayload {
  clientId: string;
  subscriptionId: string;
  profileId: number;
  /** Times the job found the pair's delivery lease taken (its delay doubles). */
  busy?: number;
}

/**
 * Deliver a profile's events that one subscription has not received yet, in order
 * (queued after each applied write with events the subscription takes, and for retries).
 */
export const DELIVER_PROFILE_EVENTS = defineJob<DeliverProfileEventsPayload>({
  name: 'event-delivery',
  tenantOf: ({ clientId }) => clientId,
  queue: EVENTS_QUEUE,
});

/** What an event-redelivery job carries: a dead letter to send again. */
export interface RedeliverEventPayload {
  clientId: string;
  subscriptionId: string;
  eventId: string;
}

/** Send a dead-lettered delivery again (POST .../DeadLetters/{eventId}/Redeliver). */
export const REDELIVER_EVENT = defineJob<RedeliverEventPayload>({
  name: 'event-redelivery',
  tenantOf: ({ clientId }) => clientId,
  queue: EVENTS_QUEUE,
});

/** What an event-replay job carries: the subscription set Active again. */
export interface ReplayPausedEventsPayload {
  clientId: string;
  subscriptionId: string;
}

/**
 * Queue the deliveries of the profiles whose events a subscription with DeliverPausedEvents
 * took while it was paused (queued when it is set Active again).
 */
export const REPLAY_PAUSED_EVENTS = defineJob<ReplayPausedEventsPayload>({
  name: 'event-replay',
  tenantOf: ({ clientId }) => clientId,
  queue: EVENTS_QUEUE,
});

/** Every job of the events module, for the apps to hand to QueueModule. */
export const EVENT_JOBS: JobDefinition[] = [
  VALIDATE_EVENT_SUBSCRIPTION,
  DELIVER_PROFILE_EVENTS,
  REDELIVER_EVENT,
  REPLAY_PAUSED_EVENTS,
];
