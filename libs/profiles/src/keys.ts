import { textKey } from '@app/shared';

/*
 * Every composite `_id` (and Redis key part) of the profiles module, in one place. Each
 * starts with the client id: a document is only ever reached through its tenant's key, so
 * no lookup can cross tenants. Addressing by `_id` is what keeps the engine's cost constant
 * (docs/architecture.md, "Cost").
 */

/** A profile (`profiles`), its pending marker, its read model entry. */
export function profileKey(clientId: string, profileId: number): string {
  return `${clientId}|${profileId}`;
}

/** The lease a worker holds on a profile while it applies its writes. */
export function profileLeaseKey(clientId: string, profileId: number): string {
  return `profile:${profileKey(clientId, profileId)}`;
}

/** The end of one holding of an alternate-id claim (`token`: that holding's). */
export function alternateIdClaimEndKey(claimKey: string, token: string): string {
  return `${claimKey}|end:${token}`;
}

/** An accepted write of a profile (`profile_writes`), by sequence number. */
export function writeKey(clientId: string, profileId: number, seq: number): string {
  return `${clientId}|${profileId}|${seq}`;
}

/** A page of a profile's history (`profile_history`). */
export function historyPageKey(clientId: string, profileId: number, page: number): string {
  return `${clientId}|${profileId}|p${page}`;
}

/** The n-th history entry of one write. */
export function historyEntryKey(
  clientId: string,
  profileId: number,
  seq: number,
  n: number,
): string {
  return `${clientId}|${profileId}|${seq}|${n}`;
}

/** The claim of an alternate id (type and value compared as text keys). */
export function alternateIdClaimKey(clientId: string, type: string, value: string): string {
  return `${clientId}|${textKey(type)}|${textKey(value)}`;
}

/** A tag of the client's tag list, by its key. */
export function tagNameKey(clientId: string, key: string): string {
  return `${clientId}|name:${key}`;
}

/** The claim of a ProfileTagLink number. */
export function tagLinkKey(clientId: string, link: number): string {
  return `${clientId}|link:${link}`;
}

/** Where the next ProfileTagLink number is probed from. */
export function tagLinkHintKey(clientId: string): string {
  return `${clientId}|link-hint`;
}
