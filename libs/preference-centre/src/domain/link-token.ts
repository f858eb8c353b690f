import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The signed links of the preference centre (docs/preference-centre.md, "Links"). A link
 * names the client (its path), the profile (p), the expiry (e, Unix seconds), for the
 * one-click unsubscribe links what they unsubscribe from (u), and the signature (s):
 * HMAC-SHA-256, with the client's key, of the canonical text
 * `["preference-centre",1,<clientId>,<profileId>,<expiry>,<purpose>]` (JSON), base64url
 * without padding. The purpose is "page" for the page, "unsubscribe:<u>" for a one-click
 * link, so a link of one kind never passes as the other.
 */

/** What a one-click link unsubscribes from: everything, a program, or a program on a channel. */
export type UnsubscribeScope =
  { kind: 'all' } | { kind: 'program'; programId: number; channel?: string };

export type LinkPurpose = { kind: 'page' } | { kind: 'unsubscribe'; scope: UnsubscribeScope };

export interface LinkClaims {
  clientId: string;
  profileId: number;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
  purpose: LinkPurpose;
}

/** The query parameters of a link (p, e, u for a one-click link, s). */
export interface LinkParameters {
  p: string;
  e: string;
  u?: string;
  s: string;
}

/** Why a link is refused: altered (or never signed by this service), or expired. */
export type LinkRefusal = 'invalid' | 'expired';

const VERSION = 1;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

/** The `u` parameter of a scope: "all", "<programId>" or "<programId>:<channel>". */
export function scopeParameter(scope: UnsubscribeScope): string {
  if (scope.kind === 'all') return 'all';
  return scope.channel === undefined
    ? String(scope.programId)
    : [scope.programId, scope.channel].join(':');
}

/** The scope a `u` parameter names, or null when it is malformed. */
export function parseScope(value: string): UnsubscribeScope | null {
  if (value === 'all') return { kind: 'all' };
  const match = /^(\d{1,10})(?::(.{1,20}))?$/.exec(value);
  if (!match) return null;
  const programId = Number(match[1]);
  if (programId < 1 || programId > 2147483647) return null;
  return match[2] === undefined
    ? { kind: 'program', programId }
    : { kind: 'program', programId, channel: match[2] };
}

function purposeText(purpose: LinkPurpose): string {
  return purpose.kind === 'page' ? 'page' : `unsubscribe:${scopeParameter(purpose.scope)}`;
}

function canonicalText(claims: LinkClaims): string {
  return JSON.stringify([
    'preference-centre',
    VERSION,
    claims.clientId,
    claims.profileId,
    claims.expiresAt,
    purposeText(claims.purpose),
  ]);
}

/** The signature of the claims with the client's key (raw bytes). */
export function signLink(claims: LinkClaims, key: Buffer): string {
  return createHmac('sha256', key).update(canonicalText(claims)).digest('base64url');
}

/** The query parameters of a signed link. */
export function linkParameters(claims: LinkClaims, key: Buffer): LinkParameters {
  return {
    p: String(claims.profileId),
    e: String(claims.expiresAt),
    ...(claims.purpose.kind === 'unsubscribe' ? { u: scopeParameter(claims.purpose.scope) } : {}),
    s: signLink(claims, key),
  };
}

/**
 * The claims of a link's parameters, after checking the signature (in constant time) and
 * then the expiry: a link altered in any part is 'invalid' (even if also expired), an
 * intact one past its expiry 'expired'. `key` null: the client has no key, so no link of
 * it can be valid.
 */
export function verifyLink(
  clientId: string,
  parameters: Partial<Record<keyof LinkParameters, unknown>>,
  expectedPurpose: 'page' | 'unsubscribe',
  key: Buffer | null,
  now: Date,
): { claims: LinkClaims } | { refused: LinkRefusal } {
  const { p, e, u, s } = parameters;
  if (typeof p !== 'string' || typeof e !== 'string' || typeof s !== 'string')
    return { refused: 'invalid' };
  if (!/^[1-9]\d{0,9}$/.test(p) || !/^\d{1,12}$/.test(e) || !SIGNATURE.test(s))
    return { refused: 'invalid' };
  const profileId = Number(p);
  if (profileId > 2147483647) return { refused: 'invalid' };
  let purpose: LinkPurpose;
  if (expectedPurpose === 'page') {
    if (u !== undefined) return { refused: 'invalid' };
    purpose = { kind: 'page' };
  } else {
    const scope = typeof u === 'string' ? parseScope(u) : null;
    if (!scope) return { refused: 'invalid' };
    purpose = { kind: 'unsubscribe', scope };
  }
  if (!key) return { refused: 'invalid' };
  const claims: LinkClaims = { clientId, profileId, expiresAt: Number(e), purpose };
  const expected = Buffer.from(signLink(claims, key), 'base64url');
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { refused: 'invalid' };
  if (now.getTime() > claims.expiresAt * 1000) return { refused: 'expired' };
  return { claims };
}
