import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/*
 * Where a subscription may send its events: the first of two guards against requests to
 * the service's own network (SSRF). This one checks the URL as written (scheme, credentials,
 * `localhost`, literal addresses); safePost checks every address a host name resolves to,
 * at connect time, since a public-looking name may resolve to a private address.
 */

/** The longest Url a subscription takes. */
export const TARGET_URL_MAX_LENGTH = 2048;

/**
 * Whether `ip` (IPv4 or IPv6 text) is a public unicast address: not loopback, private
 * (RFC 1918, fc00::/7), link-local, unspecified, multicast, broadcast, carrier-grade NAT,
 * documentation, benchmarking or any other special range ipaddr.js knows. An IPv4-mapped
 * IPv6 address is judged as its IPv4 address. Anything that does not parse is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(text)) return false;
  // process(): ::ffff:127.0.0.1 is 127.0.0.1 (else it would pass as an IPv6 "ipv4Mapped").
  return ipaddr.process(text).range() === 'unicast';
}

/** The special range an address is in ("loopback", "private"...), for messages. */
export function addressRange(ip: string): string {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  return ipaddr.isValid(text) ? ipaddr.process(text).range() : 'not an address';
}

/** `localhost` and the names under it (RFC 6761), with or without the final dot. */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/**
 * Why `url` may not be a subscription's target, or null when it may: an absolute `https:`
 * URL (`http:` too when `allowPrivate`), without credentials, at most 2048 characters, whose
 * host is not `localhost` nor a literal non-public address (unless `allowPrivate`, for
 * operators: a receiver on the same host or network).
 */
export function targetUrlProblem(url: string, allowPrivate: boolean): string | null {
  if (url.length > TARGET_URL_MAX_LENGTH) {
    return `must be at most ${TARGET_URL_MAX_LENGTH} characters`;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute https URL';
  }
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme !== 'https' && !(scheme === 'http' && allowPrivate)) {
    return allowPrivate
      ? `must be an https or http URL (not ${scheme})`
      : `must be an https URL (not ${scheme})`;
  }
  if (parsed.username || parsed.password) return 'must not carry credentials';
  // The WHATWG parser already turned numeric forms (2130706433, 0x7f.1) into dotted IPv4.
  const host = parsed.hostname;
  if (!host) return 'must name a host';
  if (allowPrivate) return null;
  if (isLocalhostName(host)) return `must not target localhost (${host})`;
  const literal = host.startsWith('[') ? host.slice(1, -1) : host;
  if (isIP(literal) && !isPublicAddress(literal)) {
    return `must not target a non-public address (${literal} is ${addressRange(literal)})`;
  }
  return null;
}

/**
 * The form two Urls are compared in (the 409 for a URL subscribed twice): scheme and host
 * lower-cased and the default port dropped (the URL parser does both), trailing slashes of
 * the path ignored; query kept, fragment ignored (never sent).
 */
export function normalisedTargetUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/+$/, '');
    return `${parsed.protocol}//${parsed.host}${path}${parsed.search}`;
  } catch {
    return url.trim();
  }
}
