import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { normText } from './element-rules';

/**
 * Which profile holds an alternate id. `_id` is `<clientId>|<type>|<value>` lower-cased:
 * the engine enforces no unique index on array elements, so uniqueness per type across
 * a client's profiles rests on this insert (duplicate = error 11000).
 */
@Schema({ collection: 'alternate_id_claims', versionKey: false })
export class AlternateIdClaim {
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
}
export const AlternateIdClaimSchema = SchemaFactory.createForClass(AlternateIdClaim);
// No secondary index: claims are read, inserted and deleted by `_id` only (a deleted
// profile's claims are released pair by pair from its stored alternate ids).

export function alternateIdClaimKey(clientId: string, type: string, value: string): string {
  return `${clientId}|${normText(type)}|${normText(value)}`;
}
