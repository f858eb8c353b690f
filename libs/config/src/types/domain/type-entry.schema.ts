import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

@Schema({ _id: false })
export class StoredLocalizedField {
  @Prop({ required: true }) Locale: string;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
}
const StoredLocalizedFieldSchema = SchemaFactory.createForClass(StoredLocalizedField);

@Schema({ _id: false })
export class StoredTypeEdited {
  @Prop() CreateDate: string;
  @Prop() CreatedBy: string;
  @Prop() ModifiedDate: string;
  @Prop() ModifiedBy: string;
}
const StoredTypeEditedSchema = SchemaFactory.createForClass(StoredTypeEdited);

/**
 * One revision of a type-configuration entry (address type, customer type, ...) of one
 * client: `_id` is `<clientId>|<kind>|<typeId>|<revision>`. A save never changes an entry's
 * data: it inserts the next revision, and the insert of that `_id` is what decides between
 * two concurrent writers (the loser gets error 11000, re-reads and redoes its change). That
 * is the only compare-and-set both engines make atomic: FerretDB v1.24 evaluates the filter
 * of a replaceOne/updateOne apart from its write, so a revision filter lets two writers
 * through. Revisions are never deleted (a deleted revision could be inserted again by a
 * writer that read an older one); the superseded ones are marked `current: false` and
 * reads take the highest current revision of each entry. They are the entry's history.
 */
@Schema({ collection: 'config_types', versionKey: false })
export class StoredTypeEntry {
  @Prop({ type: String }) _id: string;
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
  @Prop({ type: StoredTypeEditedSchema }) Edited: StoredTypeEdited;
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
  @Prop({ type: String }) _id: string;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) kind: string;
  @Prop({ required: true }) seq: number;
  /** The default entry's TypeId; 0 when the kind has no default. */
  @Prop({ required: true }) typeId: number;
}
export const TypeDefaultSchema = SchemaFactory.createForClass(TypeDefault);
// Serves: the latest record of a client's kind (the current default).
TypeDefaultSchema.index({ clientId: 1, kind: 1, seq: -1 });
