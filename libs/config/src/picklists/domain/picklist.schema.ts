import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';

@Schema({ _id: false })
export class StoredLocalizedName {
  @Prop({ type: String, required: true }) Locale: string;
  @Prop({ type: String, required: true }) Name: string;
  @Prop({ type: String }) Description?: string;
}
const LocalizedNameSchema = SchemaFactory.createForClass(StoredLocalizedName);

/** One option of a picklist: the stored value and its localised display names. */
@Schema({ _id: false })
export class StoredPicklistOption {
  @Prop({ type: String, required: true }) Value: string;
  @Prop({ type: [LocalizedNameSchema], default: [] }) LocalizedNames: StoredLocalizedName[];
  @Prop({ type: Number }) DisplayOrder?: number;
  @Prop({ type: Boolean, default: true }) IsActive: boolean;
}
const PicklistOptionSchema = SchemaFactory.createForClass(StoredPicklistOption);

/**
 * One revision of a picklist of one client: `_id` is `<clientId>|picklist|<id>|<revision>`
 * (insert-only revisions, see RevisionStore). The id and the name are claimed in
 * config_claims first (ConfigBookkeeping), so both stay unique per client.
 */
@Schema({ collection: 'config_picklists', versionKey: false })
export class StoredPicklist {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) picklistId: number;
  @Prop({ type: Number, required: true }) revision: number;
  @Prop({ type: Boolean, required: true, default: true }) current: boolean;
  @Prop({ type: String, required: true }) Name: string;
  /** The name as compared for uniqueness (trimmed, spaces folded, lower case). */
  @Prop({ type: String, required: true }) nameKey: string;
  @Prop({ type: String }) Description?: string;
  @Prop({ type: Boolean, default: true }) IsActive: boolean;
  @Prop({ type: [PicklistOptionSchema], default: [] }) FieldSelectOptions: StoredPicklistOption[];
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}
export const PicklistSchema = SchemaFactory.createForClass(StoredPicklist);
// Serves: one picklist's latest revision (GET ?Id, PATCH, PicklistCatalog.findById) and
// marking its older revisions superseded.
PicklistSchema.index({ clientId: 1, picklistId: 1, revision: -1 });
// Serves: the current revisions of a client's picklists in id order (GET, PicklistCatalog.list).
PicklistSchema.index({ clientId: 1, current: 1, picklistId: 1 });
// Serves: the name pre-check of a create (which of these names exist already).
PicklistSchema.index({ clientId: 1, nameKey: 1, current: 1 });

export const PICKLIST_KIND = 'picklist';
