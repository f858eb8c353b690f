/**
 * Rules for the identifiers the auth module stores. Client ids appear in URL paths and
 * in `users._id` (`<clientId>|<userId>`), so they are restricted to URL-safe
 * characters without `|`; user ids are free text (the custom scheme URL-encodes them).
 */

/** Also the pattern of the `{clientId}` path parameter in the OpenAPI document. */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$';
const CLIENT_ID = new RegExp(CLIENT_ID_PATTERN);

/**
 * Client ids no client may take: the first segment of routes placed before `{clientId}`
 * (the older bulk routes, `Async/{clientId}/...`), which the router would take for them.
 */
export const RESERVED_CLIENT_IDS = ['async'];

export function isValidClientId(clientId: string): boolean {
  return CLIENT_ID.test(clientId) && !RESERVED_CLIENT_IDS.includes(clientId.toLowerCase());
}

export function isValidUserId(userId: string): boolean {
  return isPlainName(userId, 256);
}

/** Non-empty, at most `maxLength` characters, no control characters, no outer spaces. */
export function isPlainName(value: string, maxLength: number): boolean {
  if (value.length === 0 || value.length > maxLength || value.trim() !== value) return false;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
