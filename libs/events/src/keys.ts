import { type TenantKey, tenantKey, tenantRootKey } from '@app/shared';

/*
 * Every key of the events module's subscriptions, in one place. A client's subscriptions
 * are one document reached by its client id only: another client's subscription ids find
 * nothing in it (404, as unknown ones).
 */

/** The document holding all of a client's subscriptions (`event_subscriptions`). */
export function subscriptionsKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** The Redis lease under which a client's subscriptions are read, changed and replaced. */
export function subscriptionsLeaseName(clientId: string): string {
  return `events-subscriptions:${subscriptionsKey(clientId)}`;
}

/** Where one subscription's deliveries of one profile's events stand (`event_delivery_cursors`). */
export function deliveryCursorKey(
  clientId: string,
  subscriptionId: string,
  profileId: number,
): TenantKey {
  return tenantKey(clientId, subscriptionId, profileId);
}

/** The lease under which one subscription's events of one profile are delivered, in order. */
export function deliveryLeaseName(
  clientId: string,
  subscriptionId: string,
  profileId: number,
): string {
  return `events-delivery:${deliveryCursorKey(clientId, subscriptionId, profileId)}`;
}

/** A subscription's dead-lettered deliveries (`event_dead_letters`). */
export function deadLettersKey(clientId: string, subscriptionId: string): TenantKey {
  return tenantKey(clientId, subscriptionId, 'dead');
}

/** The Redis counter a change of the client's subscriptions raises (the trigger's cache). */
export function subscriptionsVersionKey(prefix: string, clientId: string): string {
  return `${prefix}:events-subscriptions-version:${subscriptionsKey(clientId)}`;
}

/** The Redis counter of a subscription's dead letters in a row (automatic pausing). */
export function deadLetterStreakKey(prefix: string, clientId: string, subscriptionId: string) {
  return `${prefix}:events-dead-streak:${deadLettersKey(clientId, subscriptionId)}`;
}

/**
 * The Redis set of the profiles whose events a Paused subscription with DeliverPausedEvents
 * took while paused: their deliveries are queued when it is Active again.
 */
export function pausedProfilesKey(prefix: string, clientId: string, subscriptionId: string) {
  return `${prefix}:events-paused-profiles:${tenantKey(clientId, subscriptionId, 'paused')}`;
}
