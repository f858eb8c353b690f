import { HttpStatus, Injectable } from '@nestjs/common';
import {
  ApiError,
  type ClientQuotas,
  ConflictError,
  InvalidInputError,
  isDuplicateKeyError,
  NotFoundError,
  QUOTA_NAMES,
  type QuotaName,
  quotaValueProblem,
  textKey,
} from '@app/shared';
import {
  DEFAULT_TOKEN_LIFETIME_SECONDS,
  MAX_TOKEN_LIFETIME_SECONDS,
  verifyAccessToken,
} from '../domain/access-token';
import { DEFAULT_CUSTOM_AUTH_WINDOW_SECONDS } from '../domain/custom-auth';
import { isValidClientId, isValidUserId } from '../domain/identifiers';
import {
  ADMINISTRATORS_GROUP,
  administratorsGroup,
  isValidGroupName,
  normalizePermissions,
  type Permission,
  type DataScope,
  normalizeScope,
  type UserGroup,
} from '../domain/permissions';
import {
  API_HASH_KEY_LENGTH,
  CLIENT_SECRET_LENGTH,
  hashSecret,
  OAUTH_CLIENT_ID_LENGTH,
  randomAlphanumeric,
} from '../domain/secrets';
import type { TenantClient } from '../domain/tenant';
import { clientNotFound } from '../auth-errors';
import { ClientRepository, type QuotaChanges } from '../repositories/client.repository';
import { OAuthClientRepository } from '../repositories/oauth-client.repository';
import { RevokedTokenRepository } from '../repositories/revoked-token.repository';
import { UserRepository } from '../repositories/user.repository';
import { AuthCache } from './auth-cache.service';
import { AuthSettings } from '../auth-settings';

export interface CreatedClient {
  clientId: string;
  userId: string;
  apiHashKey: string;
  oauthClientId: string;
  oauthClientSecret: string;
}

export interface OAuthCredentials {
  clientId: string;
  oauthClientId: string;
  oauthClientSecret: string;
}

/** A client as `show-client` prints it: no secret (only their hashes are kept). */
export interface ClientOverview {
  clientId: string;
  oauthClientIds: string[];
}

export interface ClientSettings {
  clientId: string;
  tokenLifetimeSeconds: number;
  customAuthWindowSeconds: number;
  /** The client's own quotas; an absent one is the process-wide default. */
  quotas: ClientQuotas;
}

/** A change of a client's quotas: a value of its own, or 'default' (drops its own). */
export type QuotaSettings = { [name in QuotaName]?: number | 'default' };

/** Bounds of the per-client settings (seconds). */
export const CLIENT_SETTING_LIMITS = {
  tokenLifetimeSeconds: { min: 1, max: MAX_TOKEN_LIFETIME_SECONDS },
  customAuthWindowSeconds: { min: 1, max: 86400 },
} as const;

const GROUP_WRITE_ATTEMPTS = 5;

/**
 * Operator actions on tenants, users and credentials (the admin CLI and the test
 * harness). Generated secrets are returned once and only their hashes are kept, except
 * the APIHashKey, which the signed scheme needs in clear. Nothing here logs.
 *
 * Without transactions, createClient writes the client first (its `_id` claims the id),
 * then the first user, then the OAuth client; a crash in between leaves a client the
 * operator completes with add-user / add-oauth-client.
 */
@Injectable()
export class TenantAdminService {
  constructor(
    private readonly clients: ClientRepository,
    private readonly users: UserRepository,
    private readonly oauthClients: OAuthClientRepository,
    private readonly revoked: RevokedTokenRepository,
    private readonly cache: AuthCache,
    private readonly settings: AuthSettings,
  ) {}

  async createClient(input: { clientId: string; userId: string }): Promise<CreatedClient> {
    const { clientId, userId } = input;
    requireClientId(clientId);
    requireUserId(userId);
    const apiHashKey = randomAlphanumeric(API_HASH_KEY_LENGTH);
    try {
      await this.clients.insert({
        clientId,
        apiHashKey,
        tokenLifetimeSeconds: DEFAULT_TOKEN_LIFETIME_SECONDS,
        customAuthWindowSeconds: DEFAULT_CUSTOM_AUTH_WINDOW_SECONDS,
        userGroups: [administratorsGroup()],
        createdAt: new Date(),
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) throw new ConflictError(`Client ${clientId} already exists`);
      throw error;
    }
    await this.users.insert({ clientId, userId, group: ADMINISTRATORS_GROUP, isActive: true });
    const oauth = await this.addOAuthClient(clientId);
    await this.announce(clientId);
    return {
      clientId,
      userId,
      apiHashKey,
      oauthClientId: oauth.oauthClientId,
      oauthClientSecret: oauth.oauthClientSecret,
    };
  }

  /** Adds an active user; the group defaults to Administrators and must be defined. */
  async addUser(input: {
    clientId: string;
    userId: string;
    group?: string;
  }): Promise<{ clientId: string; userId: string; group: string; isActive: boolean }> {
    const { clientId, userId } = input;
    const group = input.group ?? ADMINISTRATORS_GROUP;
    requireUserId(userId);
    const client = await this.requireClient(clientId);
    requireGroup(client, group);
    try {
      await this.users.insert({ clientId, userId, group, isActive: true });
    } catch (error) {
      if (isDuplicateKeyError(error)) {
        throw new ConflictError(`User ${userId} already exists in client ${clientId}`);
      }
      throw error;
    }
    await this.announce(clientId);
    return { clientId, userId, group, isActive: true };
  }

  /** Moves a user to another (defined) group. */
  async setUserGroup(
    clientId: string,
    userId: string,
    group: string,
  ): Promise<{ clientId: string; userId: string; group: string }> {
    const client = await this.requireClient(clientId);
    requireGroup(client, group);
    if (!(await this.users.update(clientId, userId, { group })))
      throw userNotFound(clientId, userId);
    await this.announce(clientId);
    return { clientId, userId, group };
  }

  /** Deactivates (or reactivates) a user; tokens of an inactive user stop working at once. */
  async setUserActive(
    clientId: string,
    userId: string,
    isActive: boolean,
  ): Promise<{ clientId: string; userId: string; isActive: boolean }> {
    await this.requireClient(clientId);
    if (!(await this.users.update(clientId, userId, { isActive })))
      throw userNotFound(clientId, userId);
    await this.announce(clientId);
    return { clientId, userId, isActive };
  }

  /** New OAuth credentials for a tenant (a tenant may hold several). */
  async addOAuthClient(clientId: string): Promise<OAuthCredentials> {
    await this.requireClient(clientId);
    const oauthClientSecret = randomAlphanumeric(CLIENT_SECRET_LENGTH);
    const secretHash = hashSecret(oauthClientSecret);
    for (;;) {
      const oauthClientId = randomAlphanumeric(OAUTH_CLIENT_ID_LENGTH);
      // Listed first: a crash before the insert leaves a listed id with no record, which
      // show-client skips; the reverse would leave credentials nobody can find again.
      await this.clients.listOAuthClientIds(clientId, [oauthClientId]);
      try {
        await this.oauthClients.insert({ oauthClientId, clientId, secretHash }, new Date());
        await this.announce(clientId);
        return { clientId, oauthClientId, oauthClientSecret };
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        // A collision of 48 random characters (the id is another tenant's): draw again.
        await this.clients.unlistOAuthClientId(clientId, oauthClientId);
      }
    }
  }

  /**
   * What the admin shows of a client again: the ids of its OAuth clients, oldest first
   * (secrets are never stored, so never shown: rotate one to get a new secret).
   */
  async showClient(clientId: string): Promise<ClientOverview> {
    return { clientId, oauthClientIds: await this.oauthClientIdsOf(clientId) };
  }

  /**
   * rotateSecret for a client with a single OAuth client (the one create-client made);
   * with several, the operator names one (`--oauth-client-id`), listed in the error.
   */
  async rotateSecretOfClient(clientId: string): Promise<OAuthCredentials> {
    const ids = await this.oauthClientIdsOf(clientId);
    if (ids.length === 0) {
      throw new NotFoundError(`Client ${clientId} has no OAuth client (add one: add-oauth-client)`);
    }
    if (ids.length > 1) {
      throw new InvalidInputError(
        `Client ${clientId} has ${ids.length} OAuth clients (${ids.join(', ')}); name the one to rotate with --oauth-client-id`,
      );
    }
    return this.rotateSecret(ids[0]);
  }

  /**
   * Replaces the secret; the old one stops working at once. Tokens already issued stay
   * valid until they expire (revoke-token ends one sooner): they were issued to whoever
   * held the secret then, and a rotation is routine, not a breach response.
   */
  async rotateSecret(oauthClientId: string): Promise<OAuthCredentials> {
    const existing = await this.oauthClients.findById(oauthClientId);
    if (!existing) throw new NotFoundError(`OAuth client ${oauthClientId} was not found`);
    const oauthClientSecret = randomAlphanumeric(CLIENT_SECRET_LENGTH);
    const secretHash = hashSecret(oauthClientSecret);
    if (!(await this.oauthClients.replaceSecret(oauthClientId, secretHash, new Date()))) {
      throw new NotFoundError(`OAuth client ${oauthClientId} was not found`);
    }
    await this.announce(existing.clientId);
    return { clientId: existing.clientId, oauthClientId, oauthClientSecret };
  }

  /**
   * The client's OAuth client ids that exist, read by `_id` from its list; a record made
   * before the list gets it once from a scan of `oauth_clients`.
   */
  private async oauthClientIdsOf(clientId: string): Promise<string[]> {
    let listed = await this.clients.findOAuthClientIds(clientId);
    if (listed === null) throw clientNotFound(clientId);
    if (listed === undefined) {
      listed = await this.oauthClients.findIdsByClientIdScanning(clientId);
      await this.clients.listOAuthClientIds(clientId, listed);
    }
    const records = await Promise.all(listed.map((id) => this.oauthClients.findById(id)));
    return records.flatMap((record) =>
      record?.clientId === clientId ? [record.oauthClientId] : [],
    );
  }

  /** Replaces the APIHashKey; signatures made with the old key fail at once. */
  async rotateApiHashKey(clientId: string): Promise<{ clientId: string; apiHashKey: string }> {
    const apiHashKey = randomAlphanumeric(API_HASH_KEY_LENGTH);
    if (!(await this.clients.update(clientId, { apiHashKey }))) throw clientNotFound(clientId);
    await this.announce(clientId);
    return { clientId, apiHashKey };
  }

  /**
   * Revokes an access token, given the token itself (its expiry bounds how long the
   * entry is kept) or only its jti (kept for the longest token lifetime).
   */
  async revokeToken(input: {
    token?: string;
    jti?: string;
  }): Promise<{ jti: string; expiresAt: string }> {
    let jti: string;
    let expiresAt: Date;
    if (input.token) {
      const verified = verifyAccessToken(input.token, this.settings.jwtSecret, {
        ignoreExpiration: true,
      });
      if (!verified.ok)
        throw new InvalidInputError('The token is not an access token of this service');
      jti = verified.claims.jti;
      expiresAt = new Date(verified.claims.exp * 1000);
    } else if (input.jti) {
      jti = input.jti;
      expiresAt = new Date(Date.now() + MAX_TOKEN_LIFETIME_SECONDS * 1000);
    } else {
      throw new InvalidInputError('Give the token or its jti');
    }
    await this.revoked.revoke(jti, expiresAt);
    await this.announce(() => this.cache.revoked());
    return { jti, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Sets the client's token lifetime, CUSTOMAUTH3 window and quotas (each quota a value of
   * its own, or 'default' to drop it). Every api process applies the change from its next
   * request of the client (the announced auth stamp makes it reload the client record).
   */
  async setClientSettings(
    clientId: string,
    changes: {
      tokenLifetimeSeconds?: number;
      customAuthWindowSeconds?: number;
      quotas?: QuotaSettings;
    },
  ): Promise<ClientSettings> {
    const update: { tokenLifetimeSeconds?: number; customAuthWindowSeconds?: number } = {};
    const problems: string[] = [];
    for (const name of ['tokenLifetimeSeconds', 'customAuthWindowSeconds'] as const) {
      const value = changes[name];
      if (value === undefined) continue;
      const { min, max } = CLIENT_SETTING_LIMITS[name];
      if (!Number.isInteger(value) || value < min || value > max) {
        problems.push(`${name} must be an integer from ${min} to ${max}, got ${value}`);
      }
      update[name] = value;
    }
    const quotas: QuotaChanges = { set: {}, unset: [] };
    for (const name of QUOTA_NAMES) {
      const value = changes.quotas?.[name];
      if (value === undefined) continue;
      if (value === 'default') {
        quotas.unset.push(name);
        continue;
      }
      const problem = quotaValueProblem(name, value);
      if (problem) problems.push(`${name} (value ${value}): ${problem}, or default`);
      quotas.set[name] = value;
    }
    if (problems.length > 0) throw new InvalidInputError(problems.join('; '));
    const changeCount =
      Object.keys(update).length + Object.keys(quotas.set).length + quotas.unset.length;
    if (changeCount > 0 && !(await this.clients.update(clientId, update, quotas))) {
      throw clientNotFound(clientId);
    }
    const client = await this.requireClient(clientId);
    await this.announce(clientId);
    return {
      clientId,
      tokenLifetimeSeconds: client.tokenLifetimeSeconds,
      customAuthWindowSeconds: client.customAuthWindowSeconds,
      quotas: client.quotas,
    };
  }

  /**
   * Creates or replaces a user group of the tenant; `scope` limits the programs, consent
   * types and custom fields it sees and writes (absent lists: unrestricted).
   */
  async defineUserGroup(
    clientId: string,
    name: string,
    permissions: Permission[],
    scope?: DataScope,
  ): Promise<{ clientId: string; group: UserGroup }> {
    if (!isValidGroupName(name)) throw new InvalidInputError(`Invalid group name "${name}"`);
    const group: UserGroup = { name, permissions: normalizePermissions(permissions) };
    const limits = scope && scopeOrBadRequest(scope);
    if (limits) group.scope = limits;
    for (let attempt = 0; attempt < GROUP_WRITE_ATTEMPTS; attempt++) {
      const client = await this.requireClient(clientId);
      const groups = client.userGroups.filter((existing) => existing.name !== name);
      groups.push(group);
      if (await this.clients.replaceGroups(clientId, client.revision, groups)) {
        await this.announce(clientId);
        return { clientId, group };
      }
      // Another writer changed the groups in between: read again and redo.
    }
    throw new ConflictError(`The groups of client ${clientId} kept changing; retry`);
  }

  /**
   * A consent type renamed: every user group whose scope lists one of its former names
   * lists its new name too. The former names stay listed (they stay the type's for good):
   * profiles show a consent under its former name until their next write.
   */
  async addRenamedConsentType(
    clientId: string,
    formerNames: string[],
    typeName: string,
  ): Promise<void> {
    const key = textKey;
    const former = new Set(formerNames.map(key));
    for (let attempt = 0; attempt < GROUP_WRITE_ATTEMPTS; attempt++) {
      const client = await this.clients.findById(clientId);
      if (!client) return;
      let changed = false;
      const groups = client.userGroups.map((group) => {
        const listed = group.scope?.consentTypes;
        if (!listed?.some((name) => former.has(key(name)))) return group;
        if (listed.some((name) => key(name) === key(typeName))) return group;
        changed = true;
        return { ...group, scope: { ...group.scope, consentTypes: [...listed, typeName] } };
      });
      if (!changed) return;
      if (await this.clients.replaceGroups(clientId, client.revision, groups)) {
        await this.announce(clientId);
        return;
      }
    }
    throw new ConflictError(`The groups of client ${clientId} kept changing; retry`);
  }

  /**
   * Tells every running api process that the tenant's auth data changed (a new auth stamp:
   * they reload it on the next request), after the change is stored. Off in the admin CLI
   * when no stack runs (NOTIFY_AUTH_CHANGES=false): no process caches anything then.
   */
  private async announce(change: string | (() => Promise<void>)): Promise<void> {
    if (!this.settings.notifyAuthChanges) return;
    try {
      await (typeof change === 'string' ? this.cache.changed(change) : change());
    } catch (error) {
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        `The change is stored, but the running api processes could not be told (Redis: ${error instanceof Error ? error.message : String(error)}); repeat the command once Redis answers`,
      );
    }
  }

  private async requireClient(clientId: string): Promise<TenantClient> {
    const client = await this.clients.findById(clientId);
    if (!client) throw clientNotFound(clientId);
    return client;
  }
}

function scopeOrBadRequest(scope: DataScope): DataScope | undefined {
  try {
    return normalizeScope(scope);
  } catch (error) {
    throw new InvalidInputError((error as Error).message);
  }
}

function userNotFound(clientId: string, userId: string): NotFoundError {
  return new NotFoundError(`User ${userId} was not found in client ${clientId}`);
}

function requireClientId(clientId: string): void {
  if (!isValidClientId(clientId)) {
    throw new InvalidInputError(
      `Invalid client id "${clientId}": 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit, and not "Async" (reserved: the older bulk routes start with it)`,
    );
  }
}

function requireUserId(userId: string): void {
  if (!isValidUserId(userId)) {
    throw new InvalidInputError(
      'Invalid user id: 1 to 256 characters, no control characters, no leading or trailing space',
    );
  }
}

function requireGroup(client: TenantClient, group: string): void {
  if (!client.userGroups.some((existing) => existing.name === group)) {
    throw new NotFoundError(`Group ${group} is not defined in client ${client.clientId}`);
  }
}
