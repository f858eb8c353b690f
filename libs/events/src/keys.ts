import { type TenantKey, tenantRootKey } from '@app/shared';

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
