import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A user of a tenant. `_id` is `<clientId>|<userId>` (uniqueness through `_id` only). */
@Schema({ collection: 'users', versionKey: false })
export class UserAccount {
  @Prop({ type: String, required: true })
  _id: TenantKey;

  @Prop({ type: String, required: true })
  clientId: string;

  @Prop({ type: String, required: true })
  userId: string;

  /** Name of one of the tenant's user groups. */
  @Prop({ type: String, required: true })
  group: string;

  @Prop({ type: Boolean, required: true, default: true })
  isActive: boolean;
}
export const UserAccountSchema = SchemaFactory.createForClass(UserAccount);
// No secondary index: users are only read by _id (authentication and admin commands).
