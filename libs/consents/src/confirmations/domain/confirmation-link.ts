import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The confirmation link (docs/double-opt-in.md, "The link"): one path segment, the token
 * `<client>.<profile>.<confirmation>.<expiry>.<signature>` (the client id base64url, the
 * expiry in Unix seconds), signed with HMAC-SHA-256 under the deployment's key over
 * `["confirmation",1,client,profile,confirmation,expiry]` (JSON), base64url. Single use is
 * the confirmation's state, not the link's.
 */

export interface ConfirmationLinkClaims {
  clientId: string;
  profileId: number;
  confirmationId: string;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

export type ConfirmationLinkRefusal = 'invalid' | 'expired';

const TOKEN =
  /^([A-Za-z0-9_-]{1,120})\.(\d{1,10})\.([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

function signature(claims: ConfirmationLinkClaims, key: Buffer): string {
  const text = JSON.stringify([
    'confirmation',
    1,
    claims.clientId,
    claims.profileId,
    claims.confirmationId,
    claims.expiresAt,
  ]);
  return createHmac('sha256', key).update(text).digest('base64url');
}

export function confirmationToken(claims: ConfirmationLinkClaims, key: Buffer): string {
  return [
    Buffer.from(claims.clientId, 'utf8').toString('base64url'),
    claims.profileId,
    claims.confirmationId,
    claims.expiresAt,
    signature(claims, key),
  ].join('.');
}

/** The token's claims when its signature holds and it has not expired at `now` (ms). */
export function verifyConfirmationToken(
  token: string,
  key: Buffer,
  now: number,
): { claims: ConfirmationLinkClaims } | { refused: ConfirmationLinkRefusal } {
  const match = TOKEN.exec(token);
  if (!match) return { refused: 'invalid' };
  const claims: ConfirmationLinkClaims = {
    clientId: Buffer.from(match[1], 'base64url').toString('utf8'),
    profileId: Number(match[2]),
    confirmationId: match[3],
    expiresAt: Number(match[4]),
  };
  const expected = Buffer.from(signature(claims, key), 'base64url');
  const given = Buffer.from(match[5], 'base64url');
  // Constant time: the signature is the credential.
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { refused: 'invalid' };
  if (claims.expiresAt * 1000 <= now) return { refused: 'expired' };
  return { claims };
}
