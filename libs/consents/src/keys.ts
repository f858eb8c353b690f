import { tenantKey, type TenantKey } from '@app/shared';

/*
 * Every composite `_id` of the consents module (the do-not-contact lists), in one place.
 * Each starts with the client id: a list or entry is only reached through its tenant's key.
 */

/** A do-not-contact list. */
export function dncListKey(clientId: string, listId: number): TenantKey {
  return tenantKey(clientId, listId);
}

/** An entry of a list, by its value's key. */
export function dncEntryKey(clientId: string, listId: number, key: string): TenantKey {
  return tenantKey(clientId, listId, key);
}

/** A double opt-in confirmation of a profile (consent_confirmations, confirmation_outbox). */
export function confirmationKey(
  clientId: string,
  profileId: number,
  confirmationId: string,
): TenantKey {
  return tenantKey(clientId, profileId, confirmationId);
}

/** The list of a profile's confirmations (consent_confirmation_lists). */
export function confirmationListKey(clientId: string, profileId: number): TenantKey {
  return tenantKey(clientId, profileId);
}

/** The lease of one confirmation message's sending (Redis, LeaseService). */
export function confirmationMailLease(key: TenantKey): string {
  return `confirmation-mail:${key}`;
}

/**
 * The resend count of an address of a client (Redis, under the `confirmation-resend`
 * prefix): hash-tagged, so the key family's keys are `<prefix>:confirmation-resend:{<tag>}`.
 */
export function confirmationResendKey(clientId: string, emailKey: string): string {
  return `{${tenantKey(clientId, emailKey)}}`;
}
