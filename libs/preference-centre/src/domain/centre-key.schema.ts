import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A client's preference-centre link key (used while PREFERENCE_CENTRE_SECRET is unset): one
 * document per client, `_id` centreKeyId(clientId), inserted once by the first link made
 * for the client (the first insert wins, so every process signs with the same key). Read
 * by `_id` only; never inserted by a public request. Deleting it invalidates every link of
 * the client (docs/preference-centre.md, "Keys").
 */
@Schema({ collection: 'preference_centre_keys', versionKey: false })
export class PreferenceCentreKeyDoc {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  /** 32 random bytes, base64. */
  @Prop({ required: true }) key: string;
  @Prop({ required: true }) createdAt: Date;
}

export const PreferenceCentreKeyDocSchema = SchemaFactory.createForClass(PreferenceCentreKeyDoc);
// No secondary index: read and inserted by `_id` only.
