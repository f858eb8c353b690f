import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/** A merge record's life: accepted at the api, done once the survivor saved its absorb. */
export type ProfileMergeState = 'accepted' | 'done';

/**
 * One profile merge (docs/profile-merge.md, "The crash-safe sequence"), keyed by the
 * absorbed profile: `_id` is `<clientId>|<absorbedId>`. Its insert is what makes a merge
 * absorbing that profile the only one (of two concurrent merges absorbing A, one insert
 * wins); a record keyed by a survivor says that survivor is itself being absorbed (a cycle
 * or a chain, refused). Deleted when the merge is refused; kept once done (the survivor's
 * history read follows it to the absorbed profile's pages).
 */
@Schema({ collection: 'profile_merges', versionKey: false })
export class ProfileMergeRecord {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) absorbed: number;
  @Prop({ required: true }) survivor: number;
  @Prop({ required: true }) state: ProfileMergeState;
  /** The merge's acceptance time. */
  @Prop({ required: true }) at: Date;
  @Prop({ required: true }) reasonCode: string;
  @Prop({ required: true }) userId: string;
  /** The `merged-into` write on the absorbed profile (its sequence number), once queued. */
  @Prop() seq?: number;
}

export const ProfileMergeRecordSchema = SchemaFactory.createForClass(ProfileMergeRecord);
// No secondary index: records are read, inserted and deleted by `_id` only.

/** Body of the `merged-into` write queued on the absorbed profile. */
export interface MergedIntoWrite {
  Survivor: number;
  ReasonCode: string;
}

/** Body of the `absorb` write queued on the survivor by the absorbed profile's step. */
export interface AbsorbWrite {
  AbsorbedProfileId: number;
  ReasonCode: string;
  /** The merge's acceptance time (ISO 8601): the stamp of what the merge changes. */
  MergedAt: string;
  /** Who merged. */
  MergedBy: string;
}
