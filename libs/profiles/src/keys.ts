import { createHash } from 'node:crypto';
import { type RedisService, textKey, tenantKey, type TenantKey, tenantRootKey } from '@app/shared';

/*
 * Every composite `_id` (and Redis key part) of the profiles module, in one place. Each
 * starts with the client id: a document is only ever reached through its tenant's key, so
 * no lookup can cross tenants. Addressing by `_id` is what keeps the engine's cost constant
 * (docs/architecture.md, "Cost").
 */

/** A profile (`profiles`), its pending marker, its read model entry. */
export function profileKey(clientId: string, profileId: number): TenantKey {
  return tenantKey(clientId, profileId);
}

/** Where a client's next profile id is probed from (`profile_id_hints`). */
export function profileIdHintKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** The lease a worker holds on a profile while it applies its writes. */
export function profileLeaseKey(clientId: string, profileId: number): string {
  return `profile:${profileKey(clientId, profileId)}`;
}

/**
 * The end of one holding of an alternate-id claim (`token`: that holding's). The claim's
 * key (which holds the alternate id's value) enters only as a SHA-256 digest together with
 * the holding's token, so the kept document holds no alternate id in clear (an erased
 * profile's alternate ids leave no trace: docs/data-subject.md).
 */
export function alternateIdClaimEndKey(
  clientId: string,
  claimKey: TenantKey,
  token: string,
): TenantKey {
  const digest = createHash('sha256').update(claimKey).update('\n').update(token).digest('hex');
  return tenantKey(clientId, `end:${digest}`);
}

/** An accepted write of a profile (`profile_writes`), by sequence number. */
export function writeKey(clientId: string, profileId: number, seq: number): TenantKey {
  return tenantKey(clientId, profileId, seq);
}

/** A page of a profile's history (`profile_history`). */
export function historyPageKey(clientId: string, profileId: number, page: number): TenantKey {
  return tenantKey(clientId, profileId, `p${page}`);
}

/** The events of one applied write (`profile_events`). */
export function profileEventsKey(clientId: string, profileId: number, seq: number): TenantKey {
  return tenantKey(clientId, profileId, `e${seq}`);
}

/** The n-th event of one write (ProfileEvent.id): stable across a crash's repeat. */
export function profileEventKey(clientId: string, profileId: number, seq: number, n: number) {
  return tenantKey(clientId, profileId, seq, n);
}

/** The n-th history entry of one write. */
export function historyEntryKey(
  clientId: string,
  profileId: number,
  seq: number,
  n: number,
): TenantKey {
  return tenantKey(clientId, profileId, seq, n);
}

/** The claim of an alternate id (type and value compared as text keys). */
export function alternateIdClaimKey(clientId: string, type: string, value: string): TenantKey {
  return tenantKey(clientId, textKey(type), textKey(value));
}

/** A tag of the client's tag list, by its key. */
export function tagNameKey(clientId: string, key: string): TenantKey {
  return tenantKey(clientId, `name:${key}`);
}

/** The claim of a ProfileTagLink number. */
export function tagLinkKey(clientId: string, link: number): TenantKey {
  return tenantKey(clientId, `link:${link}`);
}

/** Where the next ProfileTagLink number is probed from. */
export function tagLinkHintKey(clientId: string): TenantKey {
  return tenantKey(clientId, `link-hint`);
}

/** The audit tombstone of an erased profile (`profile_erasures`). */
export function profileErasureKey(clientId: string, profileId: number): TenantKey {
  return tenantKey(clientId, profileId);
}

/** An identifier of an erased profile, by its salted hash (`erased_identifiers`). */
export function erasedIdentifierKey(clientId: string, hash: string): TenantKey {
  return tenantKey(clientId, `h:${hash}`);
}

/** The client's secret for the hashes of erased identifiers (`erasure_secrets`). */
export function erasureSecretKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** The merge record absorbing a profile (`profile_merges`). */
export function profileMergeKey(clientId: string, absorbedId: number): TenantKey {
  return tenantKey(clientId, absorbedId);
}

/*
 * Redis keys of one profile: tagged with the profile (`{<client>|<id>}`), so the scripts
 * that take several of them at once (a job's start reads the read model entry and clears
 * the queued flag; a pass counts the starts of its writes) run in one slot, and profiles
 * spread over every slot of a cluster.
 */

/** The profile's read model entry (a hash, read on every GET). */
export function readModelKey(redis: RedisService, clientId: string, profileId: number): string {
  return redis.tagged('pm', profileKey(clientId, profileId));
}

/** The profile's "apply job queued" flag (ApplyJobScheduler). */
export function applyQueuedKey(redis: RedisService, clientId: string, profileId: number): string {
  return redis.tagged('applyq', profileKey(clientId, profileId));
}

/** How many times the worker started applying a write (WriteStarts). */
export function writeStartsKey(
  redis: RedisService,
  write: { clientId: string; profileId: number; seq: number },
): string {
  return redis.tagged('wstart', profileKey(write.clientId, write.profileId)) + ':' + write.seq;
}
