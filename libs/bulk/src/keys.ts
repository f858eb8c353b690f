import { tenantKey, type TenantKey, tenantRootKey } from '@app/shared';

/*
 * Every composite `_id` of the bulk module, in one place. Each starts with the client id:
 * an import and its staged data are only reached through their tenant's key, so another
 * client's access token finds nothing (404, as an unknown one).
 */

/** Where a client's next import access token is probed from (`bulk_import_hints`). */
export function importTokenHintKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** An import (`bulk_imports`), by its access token: inserting it claims the token. */
/** A member of a DueTokens sorted set: an import or export of a client. */
export function dueTokenKey(clientId: string, accessToken: number): string {
  return tenantKey(clientId, accessToken);
}

export function importKey(clientId: string, accessToken: number): TenantKey {
  return tenantKey(clientId, accessToken);
}

/** The n-th chunk (from 1) of an import's staged records (`bulk_import_chunks`). */
export function importChunkKey(clientId: string, accessToken: number, chunk: number): TenantKey {
  return tenantKey(clientId, accessToken, `c${chunk}`);
}

/** The n-th page (from 1) of an import's exception records (`bulk_import_exceptions`). */
export function exceptionPageKey(clientId: string, accessToken: number, page: number): TenantKey {
  return tenantKey(clientId, accessToken, `x${page}`);
}

/** The lease that serializes the stage calls of one import (Redis). */
export function stageLeaseName(clientId: string, accessToken: number): string {
  return `bulk-stage:${importKey(clientId, accessToken)}`;
}

/** The lease of the worker job applying an import's chunks (Redis): one at a time. */
export function runLeaseName(clientId: string, accessToken: number): string {
  return `bulk-run:${importKey(clientId, accessToken)}`;
}

/** Where a client's next export access token is probed from (`bulk_export_hints`). */
export function exportTokenHintKey(clientId: string): TenantKey {
  return tenantRootKey(clientId);
}

/** An export (`bulk_exports`), by its access token: inserting it claims the token. */
export function exportKey(clientId: string, accessToken: number): TenantKey {
  return tenantKey(clientId, accessToken);
}

/** The k-th page (from 1) of an export's rows (`bulk_export_pages`). */
export function exportPageKey(clientId: string, accessToken: number, page: number): TenantKey {
  return tenantKey(clientId, `e${accessToken}`, `p${page}`);
}

/** The lease of the worker run building an export's next page (Redis): one at a time. */
export function exportRunLeaseName(clientId: string, accessToken: number): string {
  return `bulk-export:${exportKey(clientId, accessToken)}`;
}
