import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';

@Schema({ _id: false })
export class StoredLocalizedField {
  @Prop({ required: true }) Locale: string;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
}
const StoredLocalizedFieldSchema = SchemaFactory.createForClass(StoredLocalizedField);

/**
 * One revision of a type-configuration entry (address type, customer type, ...) of one
 * client: `_id` is `<clientId>|<kind>|<typeId>|<revision>` (insert-only revisions, see
 * RevisionStore).
 */
@Schema({ collection: 'config_types', versionKey: false })
export class StoredTypeEntry {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) kind: string;
  @Prop({ required: true }) typeId: number;
  /** 1 on create, +1 per save. */
  @Prop({ required: true }) revision: number;
  /** False once a later revision is stored (set after that insert; reads still take the highest). */
  @Prop({ required: true, default: true }) current: boolean;
  @Prop({ required: true }) TypeName: string;
  /** TypeName trimmed, spaces folded, lower-cased: what name look-ups compare. */
  @Prop({ required: true }) nameKey: string;
  @Prop({ type: [StoredLocalizedFieldSchema], default: [] })
  LocalizedFields: StoredLocalizedField[];
  @Prop({ required: true, default: true }) IsActive: boolean;
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}
export const StoredTypeEntrySchema = SchemaFactory.createForClass(StoredTypeEntry);
// Serves: the current entries of a client's kind in id order (GET, TypeCatalog.list), and
// the current revisions of given entries (name look-ups).
StoredTypeEntrySchema.index({ clientId: 1, kind: 1, current: 1, typeId: 1 });
// Serves: one entry's latest revision (GET ?Id, PATCH) and marking its older ones superseded.
StoredTypeEntrySchema.index({ clientId: 1, kind: 1, typeId: 1, revision: -1 });
// Serves: entries by name (TypeCatalog.findByName, the name check before a create).
StoredTypeEntrySchema.index({ clientId: 1, kind: 1, nameKey: 1, current: 1 });

/**
 * Which entry is the default of a client's kind, as a sequence of insert-only records:
 * `_id` is `<clientId>|<kind>|<seq>` and the highest `seq` holds (typeId 0: no default).
 * One record per kind means setting a new default clears the old one in the same write;
 * inserting the next `seq` serialises concurrent changes like entry revisions do, and for
 * the same reason records are never deleted (they are small, and defaults change rarely).
 */
@Schema({ collection: 'config_types_defaults', versionKey: false })
export class TypeDefault {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) kind: string;
  @Prop({ required: true }) seq: number;
  /** The default entry's TypeId; 0 when the kind has no default. */
  @Prop({ required: true }) typeId: number;
}
export const TypeDefaultSchema = SchemaFactory.createForClass(TypeDefault);
// Serves: the latest record of a client's kind (the current default).
TypeDefaultSchema.index({ clientId: 1, kind: 1, seq: -1 });
