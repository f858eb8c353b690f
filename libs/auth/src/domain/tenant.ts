import type { ClientQuotas } from '@app/shared';
import type { UserGroup } from './permissions';

/** A tenant account as the services see it. */
export interface TenantClient {
  clientId: string;
  apiHashKey: string;
  tokenLifetimeSeconds: number;
  customAuthWindowSeconds: number;
  /** The client's own quotas (set-client); an absent one is the process-wide default. */
  quotas: ClientQuotas;
  userGroups: UserGroup[];
  /** Optimistic-concurrency counter of userGroups. */
  revision: number;
  createdAt: Date;
}

export interface TenantUser {
  clientId: string;
  userId: string;
  group: string;
  isActive: boolean;
}

/** The authenticated caller of an API request (`@CurrentCaller()`). */
export interface Caller {
  clientId: string;
  userId: string;
  group: UserGroup;
  /**
   * The client's own quotas, as authentication loaded them with the client (cached under
   * its auth stamp, so a change applies from the next request): the rate limit, the daily
   * bulk imports and the event subscriptions read them here, never from the engine.
   */
  quotas: ClientQuotas;
}

/** The caller each cached user record authenticates as, with the client record it was made of. */
const callers = new WeakMap<TenantUser, { client: TenantClient; caller: Caller }>();

/**
 * The caller a client and user record authenticate as. Made once per pair of cached records
 * (a change of either reloads them, under a new auth stamp) and shared by their requests:
 * frozen, as nothing may change it.
 */
export function callerOf(client: TenantClient, user: TenantUser): Caller {
  const known = callers.get(user);
  if (known?.client === client) return known.caller;
  const caller: Caller = Object.freeze({
    clientId: client.clientId,
    userId: user.userId,
    group: groupOf(client, user.group),
    quotas: client.quotas,
  });
  callers.set(user, { client, caller });
  return caller;
}

/** The user's group; a group that is no longer defined grants nothing. */
export function groupOf(client: TenantClient, groupName: string): UserGroup {
  return (
    client.userGroups.find((group) => group.name === groupName) ?? {
      name: groupName,
      permissions: [],
    }
  );
}
