import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from '../domain/access-token';
import { DEFAULT_CUSTOM_AUTH_WINDOW_SECONDS } from '../domain/custom-auth';
import {
  PERMISSION_ACCESS_LEVELS,
  PERMISSION_AREAS,
  type PermissionAccess,
  type PermissionArea,
} from '../domain/permissions';

/** One grant of a user group. */
@Schema({ _id: false })
export class GroupPermissionEntry {
  @Prop({ type: String, required: true, enum: PERMISSION_AREAS })
  area: PermissionArea;

  @Prop({ type: String, required: true, enum: PERMISSION_ACCESS_LEVELS })
  access: PermissionAccess;
}
export const GroupPermissionEntrySchema = SchemaFactory.createForClass(GroupPermissionEntry);

/** A group's data scope (see DataScope): each list absent means unrestricted. */
@Schema({ _id: false })
export class DataScopeEntry {
  @Prop({ type: [String], default: undefined })
  programs?: string[];

  @Prop({ type: [String], default: undefined })
  consentTypes?: string[];

  @Prop({ type: [String], default: undefined })
  customFields?: string[];
}
export const DataScopeEntrySchema = SchemaFactory.createForClass(DataScopeEntry);

/** A user group of a tenant, embedded in its client document. */
@Schema({ _id: false })
export class UserGroupEntry {
  @Prop({ type: String, required: true })
  name: string;

  @Prop({ type: [GroupPermissionEntrySchema], default: [] })
  permissions: GroupPermissionEntry[];

  /** Absent: the group sees all programs, consent types and custom fields. */
  @Prop({ type: DataScopeEntrySchema })
  scope?: DataScopeEntry;
}
export const UserGroupEntrySchema = SchemaFactory.createForClass(UserGroupEntry);

/** A client's own quotas (ClientQuotas): each absent one is the process-wide default. */
@Schema({ _id: false })
export class ClientQuotasEntry {
  @Prop({ type: Number }) readsPerSecond?: number;
  @Prop({ type: Number }) writesPerSecond?: number;
  @Prop({ type: Number }) bulkImportsPerDay?: number;
  @Prop({ type: Number }) maxEventSubscriptions?: number;
}
export const ClientQuotasEntrySchema = SchemaFactory.createForClass(ClientQuotasEntry);

/** A tenant account. `_id` is the client id of the URL paths (case-sensitive). */
@Schema({ collection: 'clients', versionKey: false })
export class ClientAccount {
  @Prop({ type: String, required: true })
  _id: TenantKey;

  /** APIHashKey: the CUSTOMAUTH3 private key. */
  @Prop({ type: String, required: true })
  apiHashKey: string;

  @Prop({ type: Number, required: true, default: DEFAULT_TOKEN_LIFETIME_SECONDS })
  tokenLifetimeSeconds: number;

  /** CUSTOMAUTH_EXPIRATION_IN_SECONDS. */
  @Prop({ type: Number, required: true, default: DEFAULT_CUSTOM_AUTH_WINDOW_SECONDS })
  customAuthWindowSeconds: number;

  /** Absent (clients made before quotas, or none set): every quota is the default. */
  @Prop({ type: ClientQuotasEntrySchema })
  quotas?: ClientQuotasEntry;

  @Prop({ type: [UserGroupEntrySchema], default: [] })
  userGroups: UserGroupEntry[];

  /**
   * The ids of the tenant's OAuth clients (`oauth_clients._id`), listed before each is
   * inserted, so `show-client` finds them by `_id`. Absent on clients made before the list:
   * the admin reads them once from `oauth_clients` and stores them.
   */
  @Prop({ type: [String], default: undefined })
  oauthClientIds?: string[];

  /** Bumped by every change of userGroups; writes check it (no transactions, no positional updates). */
  @Prop({ type: Number, required: true, default: 0 })
  revision: number;

  @Prop({ type: Date, required: true })
  createdAt: Date;
}
export const ClientAccountSchema = SchemaFactory.createForClass(ClientAccount);
// No secondary index: clients are only read by _id.
