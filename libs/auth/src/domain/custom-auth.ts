import { createHash, createHmac } from 'node:crypto';
import { DateTime } from 'luxon';
import { constantTimeEqual } from './secrets';

/**
 * The signed authorization header (spec, Authentication, method 2), as pure functions:
 * `Authorization: <scheme> Credential=<USER_ID>/<ISSUED_TIMESTAMP> Signature=<BASE64>`.
 */

export type CustomAuthHash = 'SHA256' | 'SHA384' | 'SHA512';

export interface CustomAuthScheme {
  /** Canonical (upper-case) name, e.g. CUSTOMAUTH3-HMAC-SHA256. */
  name: string;
  /** HMAC keyed with the APIHashKey (true) or the plain hash of the key-wrapped message. */
  keyed: boolean;
  hash: CustomAuthHash;
}

/** Scheme named in WWW-Authenticate when the request's own scheme was not valid. */
export const DEFAULT_CUSTOM_AUTH_SCHEME = 'CUSTOMAUTH3-HMAC-SHA256';

/** Default of CUSTOMAUTH_EXPIRATION_IN_SECONDS: a signed header is valid 15 minutes. */
export const DEFAULT_CUSTOM_AUTH_WINDOW_SECONDS = 900;

const SCHEME = /^CUSTOMAUTH3-(HMAC-)?(SHA256|SHA384|SHA512)$/;

/** The scheme for a name as sent (case-insensitive), or null when it is not one. */
export function parseCustomAuthScheme(name: string): CustomAuthScheme | null {
  const match = SCHEME.exec(name.toUpperCase());
  if (!match) return null;
  return { name: match[0], keyed: match[1] !== undefined, hash: match[2] as CustomAuthHash };
}

/** Why a signed header was refused; each maps to its own 401 message (404 for the client). */
export type CustomAuthFailure =
  | 'missing-header'
  | 'invalid-scheme'
  | 'invalid-timestamp'
  | 'future-timestamp'
  | 'window-exceeded'
  | 'generic';

export interface CustomAuthCredentials {
  /** Scheme exactly as sent (echoed in WWW-Authenticate). */
  schemeAsSent: string;
  scheme: CustomAuthScheme;
  /** User id as it appears in Credential (possibly URL-encoded); the signed message uses it. */
  userIdAsSent: string;
  /** The decoded user id, the one looked up. */
  userId: string;
  /** Issued timestamp as sent; the signed message uses it. */
  timestamp: string;
  signature: string;
}

export type ParsedCustomAuthHeader =
  | { ok: true; credentials: CustomAuthCredentials }
  | { ok: false; failure: CustomAuthFailure; schemeAsSent?: string; scheme?: CustomAuthScheme };

/**
 * Splits the header. A valid scheme with missing or malformed parameters gives
 * 'generic' with the scheme attached (the caller still resolves the client first, so
 * an unknown client answers 404 whatever the parameters).
 */
export function parseCustomAuthHeader(header: string | undefined): ParsedCustomAuthHeader {
  const text = (header ?? '').trim();
  if (!text) return { ok: false, failure: 'missing-header' };

  const [schemeAsSent, ...rest] = text.split(/\s+/);
  const scheme = parseCustomAuthScheme(schemeAsSent);
  if (!scheme) return { ok: false, failure: 'invalid-scheme', schemeAsSent };

  const generic = { ok: false as const, failure: 'generic' as const, schemeAsSent, scheme };
  const parameters = new Map<string, string>();
  // Parameters are separated by spaces; a comma ending a parameter (RFC 7235 style) is
  // dropped (neither a timestamp nor Base64 ends with one).
  for (const raw of rest) {
    const token = raw.endsWith(',') ? raw.slice(0, -1) : raw;
    const equals = token.indexOf('=');
    if (equals <= 0) return generic;
    const name = token.slice(0, equals).toLowerCase();
    if (parameters.has(name)) return generic;
    parameters.set(name, token.slice(equals + 1));
  }
  const credential = parameters.get('credential');
  const signature = parameters.get('signature');
  if (!credential || !signature || parameters.size !== 2) return generic;

  const slash = credential.indexOf('/');
  if (slash <= 0 || slash === credential.length - 1) return generic;
  const userIdAsSent = credential.slice(0, slash);
  const timestamp = credential.slice(slash + 1);
  const userId = decodeUserId(userIdAsSent);
  if (userId === null) return generic;

  return {
    ok: true,
    credentials: { schemeAsSent, scheme, userIdAsSent, userId, timestamp, signature },
  };
}

/** `%20` and friends decoded; null when the encoding is malformed. `+` stays a plus. */
export function decodeUserId(userIdAsSent: string): string | null {
  try {
    return decodeURIComponent(userIdAsSent);
  } catch {
    return null;
  }
}

export interface SignatureInput {
  /** The `{clientId}` path segment exactly as in the URL. */
  clientId: string;
  /** The user id exactly as in Credential (URL-encoded when it has spaces or specials). */
  userId: string;
  /** The issued timestamp exactly as in Credential. */
  timestamp: string;
  /** The tenant's APIHashKey. */
  key: string;
}

/** Keyed: `<ClientId>:<UserId>:<Timestamp>`; un-keyed: `<Key>:<ClientId>:<UserId>:<Timestamp>:<Key>`. */
export function signatureMessage(scheme: CustomAuthScheme, input: SignatureInput): string {
  const core = `${input.clientId}:${input.userId}:${input.timestamp}`;
  return scheme.keyed ? core : `${input.key}:${core}:${input.key}`;
}

/** Base64 of the HMAC (keyed) or hash (un-keyed) of the message. */
export function computeSignature(scheme: CustomAuthScheme, input: SignatureInput): string {
  const algorithm = scheme.hash.replace('SHA', 'sha');
  const message = signatureMessage(scheme, input);
  const digest = scheme.keyed
    ? createHmac(algorithm, input.key).update(message, 'utf8').digest()
    : createHash(algorithm).update(message, 'utf8').digest();
  return digest.toString('base64');
}

/** Constant-time check of a received signature. */
export function isSignatureValid(
  scheme: CustomAuthScheme,
  input: SignatureInput,
  signature: string,
): boolean {
  return constantTimeEqual(computeSignature(scheme, input), signature);
}

/** Offsets accepted (minutes east of UTC): UTC, US Eastern standard and daylight time. */
const ACCEPTED_OFFSETS = new Set([0, -300, -240]);

/**
 * The issued time of an ISO 8601 timestamp, in epoch milliseconds, or null when the
 * text is not ISO 8601 with a calendar date, or its offset is neither UTC (`Z`,
 * `+00:00`, or none) nor US Eastern (`-05:00`, or `-04:00` in daylight time).
 */
export function parseIssuedTimestamp(timestamp: string): number | null {
  if (!/^\d{4}/.test(timestamp)) return null;
  const parsed = DateTime.fromISO(timestamp, { zone: 'utc', setZone: true });
  if (!parsed.isValid || !ACCEPTED_OFFSETS.has(parsed.offset)) return null;
  return parsed.toMillis();
}

/** Checks the issued time against now: not in the future, not older than the window. */
export function checkIssuedTime(
  issuedMs: number,
  nowMs: number,
  windowSeconds: number,
): 'ok' | 'future-timestamp' | 'window-exceeded' {
  if (issuedMs > nowMs) return 'future-timestamp';
  if (nowMs - issuedMs > windowSeconds * 1000) return 'window-exceeded';
  return 'ok';
}

/** The 401 message of each failure (404 for an unknown client has no body). */
export const CUSTOM_AUTH_MESSAGES: Record<CustomAuthFailure, string> = {
  'missing-header': 'Authorization header missing',
  'invalid-scheme':
    'Invalid authorization scheme: the scheme must contain CUSTOMAUTH3- or CUSTOMAUTH3-HMAC- (or be Bearer)',
  'invalid-timestamp':
    'Invalid issued timestamp: it must be ISO 8601 in UTC or US Eastern time (UTC-5, or UTC-4 in daylight time)',
  'future-timestamp': 'Invalid issued timestamp: it lies in the future',
  'window-exceeded':
    'The signed authorization has expired: the difference between the issued time and the current time exceeds the allowed window',
  generic:
    'Authorization failed: check the client id, the user id, the parameters and the signature',
};
