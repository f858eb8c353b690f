import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';
import type { ConsentChannel } from './consent-channel';

@Schema({ _id: false })
export class StoredTypeLocalizedField {
  @Prop({ type: String, required: true }) Locale: string;
  @Prop({ type: String, required: true }) Name: string;
  @Prop({ type: String }) Description?: string;
}
const TypeLocalizedFieldSchema = SchemaFactory.createForClass(StoredTypeLocalizedField);

/** The consent language of a version in one locale. */
@Schema({ _id: false })
export class StoredVersionLocalizedField {
  @Prop({ type: String }) ConsentLanguage?: string;
  @Prop({ type: String, required: true }) Locale: string;
  @Prop({ type: String, required: true }) Name: string;
  @Prop({ type: String }) Description?: string;
}
const VersionLocalizedFieldSchema = SchemaFactory.createForClass(StoredVersionLocalizedField);

@Schema({ _id: false })
export class StoredConsentVersion {
  @Prop({ type: String, required: true }) ConsentVersion: string;
  @Prop({ type: [VersionLocalizedFieldSchema], default: [] })
  LocalizedFields: StoredVersionLocalizedField[];
  @Prop({ type: Number }) ExpirationInDays?: number;
  @Prop({ type: Boolean, default: true }) IsActive: boolean;
  @Prop({ type: Boolean, default: false }) IsAssociatedWithProfiles: boolean;
  /** When the version was added to the type (ISO 8601); never changes afterwards. */
  @Prop({ type: String, required: true }) PublishedDate: string;
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}
const ConsentVersionSchema = SchemaFactory.createForClass(StoredConsentVersion);

@Schema({ _id: false })
export class StoredConsentAttribute {
  @Prop({ type: String, required: true }) Key: string;
  @Prop({ type: String }) Value?: string;
}
const ConsentAttributeSchema = SchemaFactory.createForClass(StoredConsentAttribute);

/**
 * One revision of a consent type of one client with its versions: `_id` is
 * `<clientId>|consent-type|<id>|<revision>` (insert-only revisions, see RevisionStore). The
 * id and the name are claimed in config_claims first (ConfigBookkeeping), so both stay
 * unique per client.
 */
@Schema({ collection: 'config_consent_types', versionKey: false })
export class StoredConsentType {
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ type: String, required: true }) clientId: string;
  @Prop({ type: Number, required: true }) typeId: number;
  @Prop({ type: Number, required: true }) revision: number;
  @Prop({ type: Boolean, required: true, default: true }) current: boolean;
  @Prop({ type: String, required: true }) TypeName: string;
  /** The name as compared for uniqueness (trimmed, spaces folded, lower case). */
  @Prop({ type: String, required: true }) nameKey: string;
  /**
   * Every name the type had before its current one. Stored consents, filters and queued
   * writes may still carry one: they resolve to this type (ClientVocabulary), and the names
   * stay claimed by it, so no other consent type can ever take them.
   */
  @Prop({ type: [String], default: undefined }) FormerNames?: string[];
  @Prop({ type: [TypeLocalizedFieldSchema], default: [] })
  LocalizedFields: StoredTypeLocalizedField[];
  @Prop({ type: Boolean, default: true }) IsActive: boolean;
  @Prop({ type: Boolean, default: false }) IsDefault: boolean;
  /** Contact element channel the type is bound to; absent: profile-only. */
  @Prop({ type: String }) ChannelId?: ConsentChannel;
  /**
   * A grant on an email address counts only once the person confirms it from that mailbox
   * (double opt-in, docs/double-opt-in.md); absent: false.
   */
  @Prop({ type: Boolean }) RequiresConfirmation?: boolean;
  @Prop({ type: [ConsentAttributeSchema], default: [] }) Attributes: StoredConsentAttribute[];
  @Prop({ type: [ConsentVersionSchema], default: [] }) Versions: StoredConsentVersion[];
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
}
export const ConsentTypeSchema = SchemaFactory.createForClass(StoredConsentType);
// Serves: one type's latest revision (GET ?Id, PATCH, ConsentTypeCatalog.findById) and
// marking its older revisions superseded.
ConsentTypeSchema.index({ clientId: 1, typeId: 1, revision: -1 });
// Serves: the current revisions of a client's consent types in id order (GET, catalog list).
ConsentTypeSchema.index({ clientId: 1, current: 1, typeId: 1 });
// Serves: lookups by name (FindConsentTypeQuery, ConsentTypeCatalog.findByName, create pre-check).
ConsentTypeSchema.index({ clientId: 1, nameKey: 1, current: 1 });

export const CONSENT_TYPE_KIND = 'consent-type';

/** Every name a consent type keeps claimed: the current one and all former ones. */
export function namesOf(type: StoredConsentType): string[] {
  return [type.TypeName, ...(type.FormerNames ?? [])];
}
