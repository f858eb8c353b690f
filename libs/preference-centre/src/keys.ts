import { tenantKey, type TenantKey } from '@app/shared';

/*
 * Every composite `_id` of the preference centre, in one place (it starts with the client
 * id: a key is only reached through its tenant).
 */

/** The client's link-signing key (preference_centre_keys). */
export function centreKeyId(clientId: string): TenantKey {
  return tenantKey(clientId, 'preference-centre', 'hmac-sha256');
}
