import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * A profile that may have accepted writes not yet applied: the sweeper's work list.
 * `_id` is `<clientId>|<profileId>`. The api inserts it after each accepted write (a
 * duplicate means it is already there); only the sweeper removes it, once the profile has
 * nothing pending. So the collection holds the backlog, not the history: the sweeper reads
 * all of it without a filter, and its cost follows the backlog, never the data.
 */
@Schema({ collection: 'pending_profiles', versionKey: false })
export class PendingProfile {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) profileId: number;
  /** When the marker was inserted (the oldest accepted write it stands for, or older). */
  @Prop({ required: true }) since: Date;
}
export const PendingProfileSchema = SchemaFactory.createForClass(PendingProfile);
// No secondary index: the collection is read whole (it holds only the backlog) or by _id.
