import { type RedisService, tenantKey, type TenantKey, tenantRootKey } from '@app/shared';

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

/*
 * Redis keys of the auth module. The auth stamps (every tenant's and the revocations') and
 * the token endpoint's failure counts per OAuth client id are read together (one MGET per
 * request that reads stamps), so they share one slot: `<prefix>:{<prefix>:auth}:...`.
 */

/** Where the auth stamps' keys start: a tenant's is this and its client id (the revocations' a reserved name). */
export function authStampKeyPrefix(redis: RedisService): string {
  return redis.pinned('auth') + ':stamp:';
}

/** The prefix of the failure counts per OAuth client id (rate-limiter-flexible's keyPrefix). */
export function tokenFailuresPrefix(redis: RedisService): string {
  return redis.pinned('auth') + ':token-failures';
}
