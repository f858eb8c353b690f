import { Injectable } from '@nestjs/common';
import {
  type ClientQuotas,
  copyQuotas,
  type QuotaName,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import type { DataScope, UserGroup } from '../domain/permissions';
import type { TenantClient } from '../domain/tenant';
import { ClientAccount, type UserGroupEntry } from '../schemas/client.schema';
import { clientAccountKey } from '../keys';

/** A change of a client's own quotas: the values set, and those dropped to the default. */
export interface QuotaChanges {
  set: ClientQuotas;
  unset: QuotaName[];
}

/** The `clients` collection: lean reads mapped to TenantClient, whole-field writes. */
@Injectable()
export class ClientRepository {
  constructor(
    @InjectTenantScoped(ClientAccount) private readonly model: TenantScopedModel<ClientAccount>,
  ) {}

  async findById(clientId: string): Promise<TenantClient | null> {
    const doc = await this.model.findById(clientAccountKey(clientId)).lean<ClientAccount>().exec();
    return doc ? toTenantClient(doc) : null;
  }

  /** Throws the engine's duplicate-key error (11000) when the client id is taken. */
  async insert(client: Omit<TenantClient, 'revision' | 'quotas'>): Promise<void> {
    await this.model.create({
      _id: clientAccountKey(client.clientId),
      apiHashKey: client.apiHashKey,
      tokenLifetimeSeconds: client.tokenLifetimeSeconds,
      customAuthWindowSeconds: client.customAuthWindowSeconds,
      userGroups: client.userGroups.map(copyGroup),
      oauthClientIds: [],
      revision: 0,
      createdAt: client.createdAt,
    });
  }

  /**
   * False when the client does not exist. `quotas`: the client's own quotas to set, and
   * those to drop back to the default; each is its own field (`quotas.<name>`), so changes
   * of different quotas never undo each other.
   */
  async update(
    clientId: string,
    changes: Partial<
      Pick<TenantClient, 'apiHashKey' | 'tokenLifetimeSeconds' | 'customAuthWindowSeconds'>
    >,
    quotas: QuotaChanges = { set: {}, unset: [] },
  ): Promise<boolean> {
    const set: Record<string, string | number> = { ...changes };
    for (const [name, value] of Object.entries(copyQuotas(quotas.set))) {
      set[`quotas.${name}`] = value;
    }
    const unset = Object.fromEntries(quotas.unset.map((name) => [`quotas.${name}`, 1]));
    const result = await this.model
      .updateOne(
        { _id: clientAccountKey(clientId) },
        {
          ...(Object.keys(set).length > 0 ? { $set: set } : {}),
          ...(quotas.unset.length > 0 ? { $unset: unset } : {}),
        },
      )
      .exec();
    return result.matchedCount === 1;
  }

  /**
   * The ids of the client's OAuth clients as listed on its record; null when the client does
   * not exist, undefined when its record predates the list.
   */
  async findOAuthClientIds(clientId: string): Promise<string[] | null | undefined> {
    const doc = await this.model
      .findById(clientAccountKey(clientId), { oauthClientIds: 1 })
      .lean<Pick<ClientAccount, 'oauthClientIds'>>()
      .exec();
    return doc ? doc.oauthClientIds : null;
  }

  /** Lists OAuth client ids on the client's record (once each); false when it does not exist. */
  async listOAuthClientIds(clientId: string, oauthClientIds: string[]): Promise<boolean> {
    const result = await this.model
      .updateOne(
        { _id: clientAccountKey(clientId) },
        { $addToSet: { oauthClientIds: { $each: oauthClientIds } } },
      )
      .exec();
    return result.matchedCount === 1;
  }

  /** Takes an OAuth client id off the client's list (one drawn that another client holds). */
  async unlistOAuthClientId(clientId: string, oauthClientId: string): Promise<void> {
    await this.model
      .updateOne({ _id: clientAccountKey(clientId) }, { $pull: { oauthClientIds: oauthClientId } })
      .exec();
  }

  /** Replaces the groups if the client is still at `expectedRevision`; false otherwise. */
  async replaceGroups(
    clientId: string,
    expectedRevision: number,
    groups: UserGroup[],
  ): Promise<boolean> {
    const result = await this.model
      .updateOne(
        { _id: clientAccountKey(clientId), revision: expectedRevision },
        { $set: { userGroups: groups.map(copyGroup), revision: expectedRevision + 1 } },
      )
      .exec();
    return result.matchedCount === 1;
  }
}

/** A copy of a group, to store or as read (a stored group without permissions has none). */
function copyGroup(group: UserGroup | UserGroupEntry): UserGroup {
  return {
    name: group.name,
    permissions: (group.permissions ?? []).map(({ area, access }) => ({ area, access })),
    ...(group.scope ? { scope: copyScope(group.scope) } : {}),
  };
}

/** Only the three lists, each only when set (absent means unrestricted). */
function copyScope(scope: DataScope): DataScope {
  const copy: DataScope = {};
  if (scope.programs) copy.programs = [...scope.programs];
  if (scope.consentTypes) copy.consentTypes = [...scope.consentTypes];
  if (scope.customFields) copy.customFields = [...scope.customFields];
  return copy;
}

function toTenantClient(doc: ClientAccount): TenantClient {
  return {
    clientId: doc._id,
    apiHashKey: doc.apiHashKey,
    tokenLifetimeSeconds: doc.tokenLifetimeSeconds,
    customAuthWindowSeconds: doc.customAuthWindowSeconds,
    quotas: copyQuotas(doc.quotas),
    userGroups: (doc.userGroups ?? []).map(copyGroup),
    revision: doc.revision ?? 0,
    createdAt: doc.createdAt,
  };
}
