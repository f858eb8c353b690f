import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The service's generated receipt signing key, used while RECEIPT_SIGNING_KEY is unset: one
 * document, `_id` GENERATED_RECEIPT_KEY_ID, inserted once (the first insert wins, so every
 * process signs with the same key). It belongs to no tenant. Holds a private key: production
 * sets RECEIPT_SIGNING_KEY from its secret store instead (docs/receipts.md).
 */
@Schema({ collection: 'receipt_signing_keys', versionKey: false })
export class ReceiptSigningKeyDoc {
  @Prop({ type: String }) _id: string;
  /** PKCS#8 PEM of the Ed25519 private key. */
  @Prop({ required: true }) privateKey: string;
  @Prop({ required: true }) createdAt: Date;
}

export const ReceiptSigningKeyDocSchema = SchemaFactory.createForClass(ReceiptSigningKeyDoc);
// No secondary index: read and inserted by `_id` only.

/** The `_id` of the generated key. */
export const GENERATED_RECEIPT_KEY_ID = 'ed25519';
