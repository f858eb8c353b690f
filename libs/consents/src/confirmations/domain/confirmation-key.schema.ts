import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The deployment's generated confirmation-link key, used while CONFIRMATION_SECRET is
 * unset: one document, `_id` GENERATED_CONFIRMATION_KEY_ID, inserted once (the first insert
 * wins, so every process signs with the same key). It belongs to no tenant.
 */
@Schema({ collection: 'confirmation_link_keys', versionKey: false })
export class ConfirmationLinkKeyDoc {
  @Prop({ type: String }) _id: string;
  /** 32 random bytes, base64. */
  @Prop({ required: true }) key: string;
  @Prop({ required: true }) createdAt: Date;
}
export const ConfirmationLinkKeyDocSchema = SchemaFactory.createForClass(ConfirmationLinkKeyDoc);
// No secondary index: read and inserted by `_id` only.

export const GENERATED_CONFIRMATION_KEY_ID = 'hmac-sha256';
