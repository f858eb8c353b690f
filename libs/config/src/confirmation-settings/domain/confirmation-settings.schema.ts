import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';

/** The confirmation message in one locale (placeholders: see confirmation-template.ts). */
@Schema({ _id: false })
export class StoredConfirmationTemplate {
  @Prop({ type: String, required: true }) Locale: string;
  @Prop({ type: String, required: true }) Subject: string;
  @Prop({ type: String, required: true }) Text: string;
  @Prop({ type: String, required: true }) Html: string;
}
const ConfirmationTemplateSchema = SchemaFactory.createForClass(StoredConfirmationTemplate);

/**
 * A client's double opt-in settings (docs/double-opt-in.md): one document per client,
 * `_id` confirmationSettingsKey(clientId), replaced whole by PUT. Absent: the defaults.
 */
@Schema({ collection: 'config_confirmation_settings', versionKey: false })
export class StoredConfirmationSettings {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) TimeToLiveHours: number;
  @Prop({ type: String }) From?: string;
  @Prop({ type: [ConfirmationTemplateSchema], default: [] })
  Templates: StoredConfirmationTemplate[];
  @Prop({ type: StoredEditedSchema }) Edited?: StoredEdited;
}
export const ConfirmationSettingsSchema = SchemaFactory.createForClass(StoredConfirmationSettings);
// No secondary index: read and replaced by `_id` only.
