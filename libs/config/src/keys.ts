import { textKey, tenantKey, type TenantKey, tenantRootKey } from '@app/shared';

/*
 * Every composite `_id` of the configuration module, in one place. Each starts with the
 * client id: a document is only ever reached through its tenant's key, so no lookup can
 * cross tenants, and addressing by `_id` keeps the engine's cost constant.
 */

/** The stamp of a client's configuration (changes with every configuration write). */
export function configStampKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** One stored revision of a configuration entry (types, consent types, fields, ...). */
export function revisionKey(
  clientId: string,
  kind: string,
  entryId: number,
  revision: number,
): TenantKey {
  return tenantKey(clientId, kind, entryId, revision);
}

export function picklistKey(clientId: string, picklistId: number, revision: number): TenantKey {
  return revisionKey(clientId, 'picklist', picklistId, revision);
}

export function consentTypeKey(clientId: string, typeId: number, revision: number): TenantKey {
  return revisionKey(clientId, 'consent-type', typeId, revision);
}

export function customFieldKey(clientId: string, fieldId: number, revision: number): TenantKey {
  return revisionKey(clientId, 'custom-field', fieldId, revision);
}

/** A client's entries of one kind (what a process remembers of their ids, not a stored key). */
export function entryKindKey(clientId: string, kind: string): TenantKey {
  return tenantKey(clientId, kind);
}

/** The claim of an entry id of one kind. */
export function entryIdClaimKey(clientId: string, kind: string, id: number): TenantKey {
  return tenantKey(clientId, kind, `id:${id}`);
}

/** The claim of an entry name of one kind (the name compared as a text key). */
export function entryNameClaimKey(clientId: string, kind: string, name: string): TenantKey {
  return tenantKey(clientId, kind, `name:${textKey(name)}`);
}

/** The n-th change of a type kind's default. */
export function typeDefaultKey(clientId: string, kind: string, seq: number): TenantKey {
  return tenantKey(clientId, kind, seq);
}

/** The outbox event of a consent type's new version (one per version). */
export function consentVersionEventId(
  clientId: string,
  typeId: number,
  version: string,
): TenantKey {
  return tenantKey(clientId, `consent-version`, typeId, version);
}

/** The outbox event of a consent type's rename (one per revision). */
export function consentTypeRenamedEventId(
  clientId: string,
  typeId: number,
  revision: number,
): TenantKey {
  return tenantKey(clientId, `consent-type-renamed`, typeId, revision);
}

/** A client's double opt-in settings (one document per client). */
export function confirmationSettingsKey(clientId: string): TenantKey {
  return tenantKey(clientId, 'confirmation-settings');
}
