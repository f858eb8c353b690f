import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/**
 * The tags of a client account. A tag enters when a profile write first uses it and
 * leaves when DELETE /Tags/{name} removes it. `_id` is `<client>|name:<key>` for the tag
 * and `<client>|link:<n>` for the claim of its ProfileTagLink number (unique per client).
 */
@Schema({ collection: 'tags', versionKey: false })
export class TagEntry {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  /** `tag` for a tag, `link` for a number claim. */
  @Prop({ required: true }) type: 'tag' | 'link' | 'link-hint';
  @Prop() Name?: string;
  @Prop() Key?: string;
  @Prop({ required: true }) ProfileTagLink: number;
}
export const TagEntrySchema = SchemaFactory.createForClass(TagEntry);
// Serves: the tag listing of a client, and the highest ProfileTagLink handed out.
TagEntrySchema.index({ clientId: 1, type: 1, ProfileTagLink: -1 });
