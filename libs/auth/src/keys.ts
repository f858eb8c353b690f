import { tenantKey, type TenantKey, tenantRootKey } from '@app/shared';

/*
 * Every composite key of the auth module, in one place. It starts with the client id: a
 * user is only ever reached through its tenant's key.
 */

/** A tenant's client account (`clients`): its root document, keyed by the client id. */
export function clientAccountKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** A user document (`users`), and a user's entry in the per-process auth cache. */
export function userKey(clientId: string, userId: string): TenantKey {
  return tenantKey(clientId, userId);
}
