import type { TenantKey } from '@app/shared';
import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { StoredEdited, StoredEditedSchema } from '../../common/entry-request';
import { revisionKey } from '../../keys';

/*
 * A program and its filters, stored as one document per revision (`config_programs`): a
 * change to a program or its filters inserts the next revision under
 * `_id = <clientId>|program|<programId>|<revision>` (insert-only revisions, see
 * RevisionStore). Field names are the wire names; the lower-case fields are derived for
 * lookups.
 */

@Schema({ _id: false })
export class StoredKeyValue {
  @Prop({ required: true }) Key: string;
  @Prop() Value?: string;
}
export const StoredKeyValueSchema = SchemaFactory.createForClass(StoredKeyValue);

@Schema({ _id: false })
export class StoredTextTagLocale {
  /** Locale code (en, fr-ca). */
  @Prop({ required: true }) ID: string;
  @Prop({ type: [StoredKeyValueSchema], default: [] }) DisplayTags: StoredKeyValue[];
}
const TextTagLocaleSchema = SchemaFactory.createForClass(StoredTextTagLocale);

@Schema({ _id: false })
export class StoredFrequency {
  @Prop({ required: true }) ID: string;
  @Prop() DisplayName?: string;
  @Prop() Description?: string;
  @Prop() IsDefault?: boolean;
  @Prop() DisplayOrder?: number;
}
const FrequencySchema = SchemaFactory.createForClass(StoredFrequency);

@Schema({ _id: false })
export class StoredFrequencyLocale {
  @Prop({ required: true }) ID: string;
  @Prop({ type: [FrequencySchema], default: [] }) Frequencies: StoredFrequency[];
}
const FrequencyLocaleSchema = SchemaFactory.createForClass(StoredFrequencyLocale);

@Schema({ _id: false })
export class StoredPreferenceAttributeRef {
  @Prop({ required: true }) ID: string;
  @Prop() DisplayOrder?: number;
  @Prop() IsRequired?: boolean;
}
const PreferenceAttributeRefSchema = SchemaFactory.createForClass(StoredPreferenceAttributeRef);

@Schema({ _id: false })
export class StoredRequiredConsent {
  /** The consent type's name as consent-types spells it. */
  @Prop({ required: true }) TypeName: string;
  @Prop() DisplayOrder?: number;
}
const RequiredConsentSchema = SchemaFactory.createForClass(StoredRequiredConsent);

@Schema({ _id: false })
export class StoredFilter {
  /** Filter id: int32, unique per client (not only per program). */
  @Prop({ required: true }) ID: number;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
  /** Canonical channel (Phone, Text/SMS, Email, Mail, Solicit). */
  @Prop({ required: true }) ChannelID: string;
  @Prop() DefaultLocaleID?: string;
  @Prop() DefaultPreferenceValue?: number;
  @Prop() OptInCustomerExpirationDays?: number;
  @Prop() OptOutCustomerExpirationDays?: number;
  @Prop() OptInNonCustomerExpirationDays?: number;
  @Prop() OptOutNonCustomerExpirationDays?: number;
  @Prop({ type: [StoredKeyValueSchema], default: [] }) CustomProperties: StoredKeyValue[];
  @Prop({ type: [TextTagLocaleSchema], default: [] }) Locales: StoredTextTagLocale[];
  @Prop({ type: [FrequencyLocaleSchema], default: [] }) FrequencyLocales: StoredFrequencyLocale[];
  @Prop({ type: [PreferenceAttributeRefSchema], default: [] })
  PreferenceAttributes: StoredPreferenceAttributeRef[];
  @Prop({ type: [RequiredConsentSchema], default: [] })
  RequiredPreferenceConsents: StoredRequiredConsent[];
  /** An opt-in on this (Email) filter waits for the person's confirmation (double opt-in). */
  @Prop({ type: Boolean }) RequiresConfirmation?: boolean;
  @Prop({ default: true }) IsActive: boolean;
}
const FilterSchema = SchemaFactory.createForClass(StoredFilter);

@Schema({ collection: 'config_programs', versionKey: false })
export class StoredProgram {
  /** `<clientId>|program|<programId>|<revision>` */
  @Prop({ type: String }) _id: TenantKey;
  @Prop({ required: true }) clientId: string;
  @Prop({ required: true }) programId: number;
  /** 0 for the create, then one more for every change. */
  @Prop({ required: true, default: 0 }) revision: number;
  /** False once a later revision exists (set just after it is stored). */
  @Prop({ required: true, default: true }) current: boolean;
  @Prop({ required: true }) Name: string;
  @Prop() Description?: string;
  @Prop({ required: true }) ProgramType: string;
  @Prop({ default: true }) IsActive: boolean;
  /** An opt-in on any of its Email filters waits for the person's confirmation (double opt-in). */
  @Prop({ type: Boolean }) RequiresConfirmation?: boolean;
  @Prop({ type: [StoredKeyValueSchema], default: [] }) CustomProperties: StoredKeyValue[];
  @Prop({ type: [TextTagLocaleSchema], default: [] }) Locales: StoredTextTagLocale[];
  @Prop({ type: [FilterSchema], default: [] }) Filters: StoredFilter[];
  @Prop({ type: StoredEditedSchema }) Edited: StoredEdited;
  /** Derived: ids of the filters above (lookup of a filter's program). */
  @Prop({ type: [Number], default: [] }) filterIds: number[];
  /** Derived: lower-case TypeNames required by any filter above. */
  @Prop({ type: [String], default: [] }) requiredConsentTypes: string[];
}

export const StoredProgramSchema = SchemaFactory.createForClass(StoredProgram);
// Serves: a client's current programs in id order (GET Programs, matching, catalog) and
// the latest revision of one program (every change).
StoredProgramSchema.index({ clientId: 1, programId: 1, revision: -1 });
// Serves: the program holding a filter (PATCH Filters/{id}, required consents by filter).
StoredProgramSchema.index({ clientId: 1, filterIds: 1 });
// Serves: programs whose filters require a consent type (deactivation, IsConsentTypeRequired).
StoredProgramSchema.index({ clientId: 1, requiredConsentTypes: 1 });

export const PROGRAM_KIND = 'program';
export const FILTER_KIND = 'filter';

export function programRevisionKey(
  clientId: string,
  programId: number,
  revision: number,
): TenantKey {
  return revisionKey(clientId, PROGRAM_KIND, programId, revision);
}

/** Recomputes the derived lookup fields from the filters. */
export function withDerivedFields(program: StoredProgram): StoredProgram {
  const required = new Set<string>();
  for (const filter of program.Filters) {
    for (const consent of filter.RequiredPreferenceConsents) {
      required.add(consent.TypeName.toLowerCase());
    }
  }
  return {
    ...program,
    filterIds: program.Filters.map((filter) => filter.ID),
    requiredConsentTypes: [...required],
  };
}
