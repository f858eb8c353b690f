import type { UserGroup } from './permissions';

/** A tenant account as the services see it. */
export interface TenantClient {
  clientId: string;
  apiHashKey: string;
  tokenLifetimeSeconds: number;
  customAuthWindowSeconds: number;
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
