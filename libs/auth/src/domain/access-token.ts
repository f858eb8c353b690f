import { createSecretKey, type KeyObject, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** Default access token lifetime: 60 minutes (spec, Limits). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/**
 * Upper bound of a tenant's token lifetime. It also bounds how long a revocation by jti
 * alone (no token to read the expiry from) must be remembered.
 */
export const MAX_TOKEN_LIFETIME_SECONDS = 86400;

const ALGORITHM = 'HS256';

/**
 * The signing secret as a KeyObject, made once per secret. Given a string, jsonwebtoken
 * first tries to parse it as a PEM public key (an exception per call): measured as a fifth
 * of the api's CPU per bearer request.
 */
const keys = new Map<string, KeyObject>();
function keyOf(secret: string): KeyObject | string {
  if (!secret) return secret; // an empty key is refused by jsonwebtoken as before
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'));
    if (keys.size >= 16) keys.clear(); // secrets are few (one per process, or a test's)
    keys.set(secret, key);
  }
  return key;
}

/** The claims of our access tokens. */
export interface AccessTokenClaims {
  /** User id. */
  sub: string;
  /** Client (tenant) id. */
  cid: string;
  jti: string;
  scope: string;
  iat: number;
  exp: number;
}

export interface IssueTokenInput {
  secret: string;
  clientId: string;
  userId: string;
  scope: string;
  lifetimeSeconds: number;
  /** Epoch milliseconds; defaults to now. */
  now?: number;
  jti?: string;
}

export function issueAccessToken(input: IssueTokenInput): {
  token: string;
  claims: AccessTokenClaims;
} {
  const iat = Math.floor((input.now ?? Date.now()) / 1000);
  const claims: AccessTokenClaims = {
    sub: input.userId,
    cid: input.clientId,
    jti: input.jti ?? randomUUID(),
    scope: input.scope,
    iat,
    exp: iat + input.lifetimeSeconds,
  };
  return {
    token: jwt.sign(claims, keyOf(input.secret), { algorithm: ALGORITHM }),
    claims,
  };
}

export type VerifiedToken =
  { ok: true; claims: AccessTokenClaims } | { ok: false; reason: 'expired' | 'invalid' };

/**
 * Verifies signature (HS256 only) and expiry, and that the claims have our shape.
 * `ignoreExpiration` serves revocation, which accepts tokens that are already expired.
 */
export function verifyAccessToken(
  token: string,
  secret: string,
  options: { now?: number; ignoreExpiration?: boolean } = {},
): VerifiedToken {
  let payload: unknown;
  try {
    payload = jwt.verify(token, keyOf(secret), {
      algorithms: [ALGORITHM],
      clockTimestamp: Math.floor((options.now ?? Date.now()) / 1000),
      ignoreExpiration: options.ignoreExpiration ?? false,
    });
  } catch (error) {
    return { ok: false, reason: error instanceof jwt.TokenExpiredError ? 'expired' : 'invalid' };
  }
  const claims = payload as Partial<AccessTokenClaims>;
  const strings = [claims.sub, claims.cid, claims.jti, claims.scope];
  if (
    !strings.every((value) => typeof value === 'string' && value !== '') ||
    typeof claims.exp !== 'number'
  ) {
    return { ok: false, reason: 'invalid' };
  }
  return { ok: true, claims: claims as AccessTokenClaims };
}

/** The Bearer token of an Authorization header, '' for `Bearer` alone, null for other schemes. */
export function bearerTokenOf(authorization: string | undefined): string | null {
  const match = /^Bearer(?:\s+(.*))?$/i.exec((authorization ?? '').trim());
  if (!match) return null;
  return (match[1] ?? '').trim();
}

export const BEARER_MESSAGES = {
  invalid: 'The access token is invalid',
  expired: 'The access token has expired; request a new one',
  revoked: 'The access token has been revoked',
  inactive: 'The user of the access token is unknown or not active',
} as const;
