import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import type { IdentifierKind } from './erased-identifiers';

/** One hashed identifier of an erased profile, as its tombstone lists it. */
export interface HashedIdentifier {
  kind: IdentifierKind;
  /** HMAC-SHA-256 (hex) of the normalised identifier under the client's erasure secret. */
  hash: string;
}

/**
 * The audit tombstone of an erased profile (`<clientId>|<profileId>`), written by the
 * worker when it applies the erasure, before the profile's save (an upsert by `_id`: a
 * retry after a crash writes the same document). It holds no personal data: who asked
 * (user), when, the reason code and note the request gave, and the salted hashes of the
 * identifiers the profile held (docs/data-subject.md).
 */
@Schema({ collection: 'profile_erasures', versionKey: false })
export class ProfileErasure {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  /** The erasure write's sequence number. */
  @Prop({ required: true }) seq: number;
  /** The user whose request was accepted. */
  @Prop({ required: true }) requestedBy: string;
  /** When the request was accepted. */
  @Prop({ required: true }) requestedAt: Date;
  /** When the worker erased the profile (the first attempt's time; kept by a retry). */
  @Prop({ required: true }) erasedAt: Date;
  @Prop({ required: true }) reasonCode: string;
  @Prop() note?: string;
  @Prop({ type: [Object], default: [] }) identifiers: HashedIdentifier[];
}
export const ProfileErasureSchema = SchemaFactory.createForClass(ProfileErasure);

/**
 * A hashed identifier some erased profile of the client held (`<clientId>|h:<hash>`), so a
 * later create or import of the same email, phone, alternate id or name is flagged by `_id`
 * lookups only. One document per distinct identifier: bounded by the erasures.
 */
@Schema({ collection: 'erased_identifiers', versionKey: false })
export class ErasedIdentifier {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ type: String, required: true }) kind: IdentifierKind;
  /** The erased profiles that held it. */
  @Prop({ type: [Number], default: [] }) profileIds: number[];
  @Prop({ required: true }) lastErasedAt: Date;
}
export const ErasedIdentifierSchema = SchemaFactory.createForClass(ErasedIdentifier);

/**
 * The client's secret for the identifier hashes (`<clientId>`): 32 random bytes made on
 * the client's first erasure (an insert by `_id`; the loser of a race reads the winner's).
 * Mixed with ERASURE_HASH_PEPPER when that is set, so the engine's content alone does not
 * suffice to test guesses against the hashes.
 */
@Schema({ collection: 'erasure_secrets', versionKey: false })
export class ErasureSecret {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  /** base64 */
  @Prop({ required: true }) secret: string;
}
export const ErasureSecretSchema = SchemaFactory.createForClass(ErasureSecret);
// No secondary index on any of them: every command is by `_id`.
