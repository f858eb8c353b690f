import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A client's configuration stamp: a new random value after every configuration change.
 * Processes cache configuration per client with the stamp they read; a different stamp
 * means reload (correct across any number of api and worker processes, no Redis needed).
 */
@Schema({ collection: 'config_stamps', versionKey: false })
export class ConfigStamp {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) stamp: string;
}
export const ConfigStampSchema = SchemaFactory.createForClass(ConfigStamp);

/**
 * Claims of numeric ids and of names, per client and kind of entry. `_id` is the claim
 * (`<client>|<kind>|id:<n>` or `<client>|<kind>|name:<lower-case name>`), so a duplicate insert
 * (error 11000) is the only uniqueness signal, as on both engines.
 */
@Schema({ collection: 'config_claims', versionKey: false })
export class ConfigClaim {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) kind: string;
  /** The id of the entry holding a name claim (for id claims: the id itself). */
  @Prop({ required: true }) entryId: number;
  /** When the claim was taken (a name claim no entry holds is stale after NAME_CLAIM_GRACE_MS). */
  @Prop() claimedAt?: Date;
}
// No secondary index: claims are read by `_id` only (the next id too: highestClaimedId).
export const ConfigClaimSchema = SchemaFactory.createForClass(ConfigClaim);
