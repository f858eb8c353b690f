import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A revoked access token. `_id` is its jti. */
@Schema({ collection: 'revoked_tokens', versionKey: false })
export class RevokedToken {
  @Prop({ type: String, required: true })
  _id: string;

  /** When the token would have expired anyway; the entry is useless after that. */
  @Prop({ type: Date, required: true })
  expiresAt: Date;
}
export const RevokedTokenSchema = SchemaFactory.createForClass(RevokedToken);
// Serves the purge of entries whose token has expired (RevokedTokenRepository.revoke:
// deleteMany expiresAt < now). Not a TTL index: the embedded engine does not implement them.
RevokedTokenSchema.index({ expiresAt: 1 });
