import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';
import type { CustomFieldType, SelectListDisplayType } from './custom-field-value';

@Schema({ _id: false })
export class StoredDisplayName {
  @Prop({ type: String, required: true }) Locale: string;
  @Prop({ type: String, required: true }) Name: string;
  @Prop({ type: String }) Description?: string;
}
const DisplayNameSchema = SchemaFactory.createForClass(StoredDisplayName);

/**
 * One revision of a custom field definition of one client, any of the four types
 * (`fieldType`); the fields of the other types are absent. `_id` is
 * `<clientId>|custom-field|<id>|<revision>` (insert-only revisions, see RevisionStore). Ids
 * and names are claimed in config_claims under one kind for all types, so a name is unique
 * across the four types.
 */
@Schema({ collection: 'config_custom_fields', versionKey: false })
export class StoredCustomField {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) fieldId: number;
  @Prop({ type: String, required: true }) fieldType: CustomFieldType;
  @Prop({ type: Number, required: true }) revision: number;
  @Prop({ type: Boolean, required: true, default: true }) current: boolean;
  @Prop({ type: String, required: true }) Name: string;
  /** The name as compared for uniqueness (trimmed, spaces folded, lower case). */
  @Prop({ type: String, required: true }) nameKey: string;
  @Prop({ type: [DisplayNameSchema], default: [] }) LocalizedDisplayNames: StoredDisplayName[];
  @Prop({ type: String }) Description?: string;
  @Prop({ type: Number, required: true }) UpdateRuleId: number;
  @Prop({ type: Number }) DisplayOrder?: number;
  @Prop({ type: Boolean, default: false }) IsReadOnly: boolean;
  @Prop({ type: Boolean, default: false }) IsRequired: boolean;
  @Prop({ type: Boolean, default: true }) IsActive: boolean;
  // Text
  @Prop({ type: Number }) MinLength?: number;
  @Prop({ type: Number }) MaxLength?: number;
  @Prop({ type: String }) ValidationRegex?: string;
  // Text, Numeric
  @Prop({ type: String }) FieldMask?: string;
  // Numeric
  @Prop({ type: Number }) MinValue?: number;
  @Prop({ type: Number }) MaxValue?: number;
  @Prop({ type: Number }) DecimalPlaces?: number;
  // Text and DateTime: the text; Numeric: the number as text (converted on the wire).
  @Prop({ type: String }) DefaultValue?: string;
  // DateTime
  @Prop({ type: String }) MinDate?: string;
  @Prop({ type: String }) MaxDate?: string;
  // SelectList
  @Prop({ type: Number }) PicklistId?: number;
  @Prop({ type: String }) DisplayType?: SelectListDisplayType;
  @Prop({ type: String }) DefaultState?: string;
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}
export const CustomFieldSchema = SchemaFactory.createForClass(StoredCustomField);
// Serves: one definition's latest revision (GET ?Id, PATCH, CustomFieldCatalog.findById) and
// marking its older revisions superseded.
CustomFieldSchema.index({ clientId: 1, fieldId: 1, revision: -1 });
// Serves: the current revisions of a client's definitions in id order (GET, catalog list).
CustomFieldSchema.index({ clientId: 1, current: 1, fieldId: 1 });
// Serves: lookups by name (CustomFieldCatalog.findByName) and the name pre-check of a create.
CustomFieldSchema.index({ clientId: 1, nameKey: 1, current: 1 });

export const CUSTOM_FIELD_KIND = 'custom-field';

/** The fields each type adds to the common ones, in the order the wire shows them. */
export const TYPE_FIELDS = {
  Text: ['MinLength', 'MaxLength', 'DefaultValue', 'ValidationRegex', 'FieldMask'],
  Numeric: ['MinValue', 'MaxValue', 'DecimalPlaces', 'DefaultValue', 'FieldMask'],
  DateTime: ['MinDate', 'MaxDate', 'DefaultValue'],
  SelectList: ['PicklistId', 'DisplayType', 'DefaultState'],
} as const satisfies Record<CustomFieldType, readonly (keyof StoredCustomField)[]>;
export type TypeField = (typeof TYPE_FIELDS)[CustomFieldType][number];
