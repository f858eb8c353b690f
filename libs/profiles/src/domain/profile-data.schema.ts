import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';

/*
 * The stored profile data: the spec's wire shape (same field names), minus what is
 * computed on read (UpdateStatus). Every embedded element is a schema class; inactive
 * elements are kept here and filtered out by the mapper.
 */

@Schema({ _id: false })
export class Edited {
  @Prop() CreateDate: string;
  @Prop() CreatedBy: string;
  @Prop() ModifiedDate: string;
  @Prop() ModifiedBy: string;
}
const EditedSchema = SchemaFactory.createForClass(Edited);

/**
 * A grant (or an opt-in) waiting for the person's confirmation from their mailbox (double
 * opt-in, docs/double-opt-in.md): set by the consent (preference) rules instead of the
 * grant, never by a writer.
 */
@Schema({ _id: false })
export class StoredPendingConfirmation {
  /** The confirmation's id (consent_confirmations: `<client>|<profile>|<Id>`). */
  @Prop() Id: string;
  @Prop() RequestedDate: string;
  /** The version and locale the grant named (what the confirmation grants); not on an opt-in. */
  @Prop() ConsentVersion?: string;
  @Prop() Locale?: string;
}
const PendingConfirmationSchema = SchemaFactory.createForClass(StoredPendingConfirmation);

/**
 * The evidence of a confirmed grant (double opt-in): how, when, from where. Set by a
 * confirmation from the mailbox, or stated by a bulk import's record (a confirmation made
 * elsewhere: LinkId only if that system gave one, Evidence its free text).
 */
@Schema({ _id: false })
export class StoredConfirmationEvidence {
  /** The collection method: `DoubleOptIn` (confirmed from the mailbox). */
  @Prop() Method: string;
  @Prop() ConfirmedDate: string;
  /** The confirmation (link) id. */
  @Prop() LinkId?: string;
  @Prop() IpAddress?: string;
  @Prop() UserAgent?: string;
  @Prop() Evidence?: string;
}
const ConfirmationEvidenceSchema = SchemaFactory.createForClass(StoredConfirmationEvidence);

@Schema({ _id: false })
export class StoredConsent {
  @Prop() ConsentType?: string;
  @Prop() ConsentVersion?: string;
  @Prop() Locale?: string;
  @Prop() ConsentStatus?: number;
  @Prop() ReasonCode?: string;
  @Prop() ConsentDate?: string;
  @Prop() ExpirationDate?: string;
  @Prop() SourceId?: string;
  @Prop() Expired?: boolean;
  @Prop() UpdatedVersionPending?: boolean;
  @Prop({ type: PendingConfirmationSchema }) PendingConfirmation?: StoredPendingConfirmation;
  @Prop({ type: ConfirmationEvidenceSchema }) Confirmation?: StoredConfirmationEvidence;
  /** ConsentType trimmed, spaces folded, lower-cased (see consentRule). */
  @Prop() Key?: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const ConsentSchema = SchemaFactory.createForClass(StoredConsent);

@Schema({ _id: false })
export class StoredConsentAssociation {
  @Prop() ConsentType?: string;
  @Prop() ConsentVersion?: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop() Locale?: string;
  @Prop() ReasonCode?: string;
}
const ConsentAssociationSchema = SchemaFactory.createForClass(StoredConsentAssociation);

@Schema({ _id: false })
export class StoredPreferenceAttribute {
  @Prop() Key: string;
  @Prop() Value?: string;
}
const PreferenceAttributeSchema = SchemaFactory.createForClass(StoredPreferenceAttribute);

@Schema({ _id: false })
export class StoredPreference {
  @Prop() ProgramId?: string;
  @Prop() ChannelId?: string;
  @Prop() FilterId?: string;
  @Prop() FrequencyId?: string;
  @Prop({ type: [ConsentAssociationSchema], default: undefined })
  ConsentAssociations?: StoredConsentAssociation[];
  @Prop() MatchType?: string;
  @Prop() ReasonCode?: string;
  @Prop() PreferenceStatus?: string;
  @Prop() UserId?: string;
  @Prop() SourceId?: string;
  @Prop() ExpirationDate?: string;
  @Prop() LastModifiedDate?: string;
  @Prop() CustomerDate?: string;
  @Prop() PreferenceType?: number;
  @Prop({ type: [PreferenceAttributeSchema], default: undefined })
  PreferenceAttributes?: StoredPreferenceAttribute[];
  /** An opt-in held for the person's confirmation (double opt-in): set by the preference rules. */
  @Prop({ type: PendingConfirmationSchema }) PendingConfirmation?: StoredPendingConfirmation;
  /** The evidence of a confirmed opt-in (double opt-in). */
  @Prop({ type: ConfirmationEvidenceSchema }) Confirmation?: StoredConfirmationEvidence;
  /** Archived preferences are inactive: kept, never returned. */
  @Prop({ default: true }) IsActive: boolean;
}
const PreferenceSchema = SchemaFactory.createForClass(StoredPreference);

@Schema({ _id: false })
export class StoredEmail {
  @Prop({ type: [PreferenceSchema], default: [] }) EmailPreferences: StoredPreference[];
  @Prop() EmailAddressType?: string;
  @Prop() EmailAddress: string;
  /** EmailAddress trimmed, lower-cased: what email searches compare (see emailRule). */
  @Prop() Key?: string;
  @Prop() IsDefault?: boolean;
  @Prop({ type: [ConsentSchema], default: [] }) Consents: StoredConsent[];
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const EmailSchema = SchemaFactory.createForClass(StoredEmail);

@Schema({ _id: false })
export class StoredPhone {
  @Prop({ type: [PreferenceSchema], default: [] }) PhonePreferences: StoredPreference[];
  @Prop() PhoneType?: string;
  @Prop() PhoneNumber: string;
  /** The digits of PhoneNumber: what phone matching and search compare. */
  @Prop() PhoneNumberNumeric: number;
  @Prop() IsDefault?: boolean;
  @Prop({ type: [ConsentSchema], default: [] }) Consents: StoredConsent[];
  @Prop() IsMobile?: boolean;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const PhoneSchema = SchemaFactory.createForClass(StoredPhone);

@Schema({ _id: false })
export class StoredAddress {
  @Prop({ type: [PreferenceSchema], default: [] }) AddressPreferences: StoredPreference[];
  @Prop() AddressType: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop() IsDefault?: boolean;
  @Prop({ type: [ConsentSchema], default: [] }) Consents: StoredConsent[];
  @Prop() Address1?: string;
  @Prop() Address2?: string;
  @Prop() City?: string;
  @Prop() StateProvince?: string;
  @Prop() PostalCode?: string;
  @Prop() Country?: string;
  @Prop() CountryCode_Numeric?: string;
  @Prop() CountryCode_Alpha2?: string;
  @Prop() CountryCode_Alpha3?: string;
  @Prop() CassAddress1?: string;
  @Prop() CassAddress2?: string;
  @Prop() CassCity?: string;
  @Prop() CassStateProvince?: string;
  @Prop() CassPostalCode?: string;
  @Prop() CassStatus?: string;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const AddressSchema = SchemaFactory.createForClass(StoredAddress);

@Schema({ _id: false })
export class StoredCustomField {
  @Prop() Name: string;
  /** Name trimmed, spaces folded, lower-cased (see customFieldRule). */
  @Prop() Key?: string;
  @Prop() Value?: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const CustomFieldSchema = SchemaFactory.createForClass(StoredCustomField);

@Schema({ _id: false })
export class StoredGroup {
  @Prop() GroupType: string;
  @Prop() GroupName: string;
  /** `<type>|<name>` trimmed, spaces folded, lower-cased (see groupKey). */
  @Prop() Key?: string;
  @Prop() IsPrimary?: boolean;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const GroupSchema = SchemaFactory.createForClass(StoredGroup);

@Schema({ _id: false })
export class StoredProfileTag {
  @Prop() Name: string;
  /** Name trimmed, spaces folded, lower-cased (tags match case-insensitively). */
  @Prop() Key: string;
  @Prop({ default: true }) IsActive: boolean;
}
const ProfileTagSchema = SchemaFactory.createForClass(StoredProfileTag);

@Schema({ _id: false })
export class StoredAlternateId {
  @Prop() AlternateIdType: string;
  @Prop() AlternateId: string;
  /** `<type>|<value>` trimmed, spaces folded, lower-cased (see alternateIdKey). */
  @Prop() Key?: string;
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
}
const AlternateIdSchema = SchemaFactory.createForClass(StoredAlternateId);

@Schema({ _id: false })
export class StoredCustomerName {
  @Prop() FirstName?: string;
  @Prop() MiddleName?: string;
  @Prop() LastName?: string;
  @Prop() Prefix?: string;
  @Prop() Suffix?: string;
}
const CustomerNameSchema = SchemaFactory.createForClass(StoredCustomerName);

@Schema({ _id: false })
export class ProfileData {
  @Prop({ default: true }) IsActive: boolean;
  @Prop({ type: EditedSchema }) Edited: Edited;
  @Prop() RegistrationConfirmed?: boolean;
  @Prop() CustomerType: string;
  @Prop({ default: true }) PreserveConsents: boolean;
  @Prop({ default: true }) PreservePreferences: boolean;
  @Prop({ type: CustomerNameSchema }) CustomerName?: StoredCustomerName;
  @Prop() DefaultLocale?: string;
  @Prop() ReasonCode?: string;
  @Prop({ type: [ConsentSchema], default: [] }) Consents: StoredConsent[];
  @Prop({ type: [CustomFieldSchema], default: [] }) CustomFields: StoredCustomField[];
  @Prop({ type: [GroupSchema], default: [] }) Groups: StoredGroup[];
  @Prop({ type: [ProfileTagSchema], default: [] }) ProfileTags: StoredProfileTag[];
  @Prop({ type: [AddressSchema], default: [] }) Addresses: StoredAddress[];
  @Prop({ type: [EmailSchema], default: [] }) Emails: StoredEmail[];
  @Prop({ type: [PhoneSchema], default: [] }) PhoneNumbers: StoredPhone[];
  @Prop({ type: [PreferenceSchema], default: [] }) ProfilePreferences: StoredPreference[];
  @Prop({ type: [AlternateIdSchema], default: [] }) AlternateIds: StoredAlternateId[];
}
export const ProfileDataSchema = SchemaFactory.createForClass(ProfileData);
