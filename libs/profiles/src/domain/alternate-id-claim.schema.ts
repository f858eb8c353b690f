import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * Which profile holds an alternate id. `_id` is `<clientId>|<type>|<value>` lower-cased:
 * the engine enforces no unique index on array elements, so uniqueness per type across
 * a client's profiles rests on this insert (duplicate = error 11000).
 */
@Schema({ collection: 'alternate_id_claims', versionKey: false })
export class AlternateIdClaim {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  /**
   * Names this holding (random, new whenever the claim passes to another profile): ending
   * it (a release or a takeover) first inserts its AlternateIdClaimEnd, so of two writers
   * that would end the same holding only one does (absent on claims stored before).
   */
  @Prop({ type: String }) token?: string;
}
export const AlternateIdClaimSchema = SchemaFactory.createForClass(AlternateIdClaim);

/**
 * That one holding of an alternate id ended: `_id` is `<clientId>|end:<sha256 of the claim's
 * _id and the holding's token>` (no alternate id in clear: keys.ts alternateIdClaimEndKey). A
 * read-check-write of the claim is not atomic on the embedded engine, so the insert of this
 * document decides which of two concurrent writers (a release, a takeover) ends the
 * holding; the winner is then the claim's only writer. One small document per release or
 * takeover (alternate ids a profile drops), kept: deleting it would let a late writer that
 * read the ended holding win its insert.
 */
@Schema({ collection: 'alternate_id_claim_ends', versionKey: false })
export class AlternateIdClaimEnd {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) at: Date;
}
export const AlternateIdClaimEndSchema = SchemaFactory.createForClass(AlternateIdClaimEnd);
// No secondary index: claims are read, inserted and deleted by `_id` only (a deleted
// profile's claims are released pair by pair from its stored alternate ids).
