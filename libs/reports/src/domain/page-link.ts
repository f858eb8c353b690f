import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The reporting page's signed links (docs/reports.md, "The page"): the client (the path),
 * the operator who asked (u), the expiry (e, Unix seconds) and the signature (s):
 * HMAC-SHA-256 of the canonical text `["reports-page",1,<clientId>,<userId>,<expiry>]`
 * (JSON), base64url without padding. Short-lived (REPORTS_PAGE_LINK_MINUTES): a link is
 * the credential of a read-only page and nothing is stored per link.
 */

export interface PageLinkClaims {
  clientId: string;
  userId: string;
  /** Unix seconds after which the link is refused. */
  expiresAt: number;
}

export type PageLinkRefusal = 'invalid' | 'expired';

const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

function canonicalText(claims: PageLinkClaims): string {
  return JSON.stringify(['reports-page', 1, claims.clientId, claims.userId, claims.expiresAt]);
}

export function signPageLink(claims: PageLinkClaims, key: Buffer): string {
  return createHmac('sha256', key).update(canonicalText(claims)).digest('base64url');
}

/** The query parameters of a signed link. */
export function pageLinkParameters(claims: PageLinkClaims, key: Buffer): Record<string, string> {
  return { u: claims.userId, e: String(claims.expiresAt), s: signPageLink(claims, key) };
}

/**
 * The claims of a link's parameters after checking the signature (constant time), then the
 * expiry: an altered link is 'invalid' even when also expired.
 */
export function verifyPageLink(
  clientId: string,
  parameters: { u?: unknown; e?: unknown; s?: unknown },
  key: Buffer,
  now: Date,
): { claims: PageLinkClaims } | { refused: PageLinkRefusal } {
  const { u, e, s } = parameters;
  if (typeof u !== 'string' || typeof e !== 'string' || typeof s !== 'string')
    return { refused: 'invalid' };
  if (!u || u.length > 200 || !/^\d{1,12}$/.test(e) || !SIGNATURE.test(s))
    return { refused: 'invalid' };
  const claims: PageLinkClaims = { clientId, userId: u, expiresAt: Number(e) };
  const expected = Buffer.from(signPageLink(claims, key), 'base64url');
  const given = Buffer.from(s, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected))
    return { refused: 'invalid' };
  if (now.getTime() > claims.expiresAt * 1000) return { refused: 'expired' };
  return { claims };
}
