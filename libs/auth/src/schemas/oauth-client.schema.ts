import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** OAuth 2.0 credentials of a tenant. `_id` is the 48-character OAuth client id. */
@Schema({ collection: 'oauth_clients', versionKey: false })
export class OAuthClient {
  @Prop({ type: String, required: true })
  _id: string;

  /** The tenant (client account id) tokens of this OAuth client act for. */
  @Prop({ type: String, required: true })
  clientId: string;

  /** scrypt hash of the client secret (`scrypt$N$r$p$salt$hash`); the secret is never stored. */
  @Prop({ type: String, required: true })
  secretHash: string;

  @Prop({ type: Date, required: true })
  createdAt: Date;

  @Prop({ type: Date, required: false })
  rotatedAt?: Date;
}
export const OAuthClientSchema = SchemaFactory.createForClass(OAuthClient);
// No secondary index: OAuth clients are only read by _id (token requests, rotation).
