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
// Serves no query: the TTL index lets MongoDB delete entries of tokens that have expired
// (lookups are by _id on every bearer request).
RevokedTokenSchema.index({ expiresAt: 1 }, { expireAfterSeconds: 0 });
