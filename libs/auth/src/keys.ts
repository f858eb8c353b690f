/*
 * Every composite key of the auth module, in one place. It starts with the client id: a
 * user is only ever reached through its tenant's key.
 */

/** A user document (`users`), and a user's entry in the per-process auth cache. */
export function userKey(clientId: string, userId: string): string {
  return `${clientId}|${userId}`;
}
