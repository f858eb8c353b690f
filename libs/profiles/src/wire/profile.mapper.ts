import type {
  Edited,
  ProfileData,
  StoredAddress,
  StoredAlternateId,
  StoredConsent,
  StoredConsentAssociation,
  StoredCustomField,
  StoredEmail,
  StoredGroup,
  StoredPhone,
  StoredPreference,
} from '../domain/profile-data.schema';
import type {
  AddressSnapshot,
  EmailSnapshot,
  PhoneSnapshot,
  StandardSnapshot,
} from '../domain/profile-history.schema';
import type { AddressDto, EmailDto, PhoneDto } from './contact.dto';
import type { ConsentAssociationDto, ConsentDto } from './consent.dto';
import type { EditedDto } from '@app/shared';
import type { PreferenceDto } from './preference.dto';
import type { AlternateIdDto, CustomFieldDto, GroupDto, ProfileDto } from './profile.dto';
import {
  canSeeConsentType,
  canSeeCustomField,
  canSeePreference,
  FULL_VIEW,
  type ProfileView,
} from '../domain/profile-view';

export const UPDATE_STATUS = { complete: 'Complete', pending: 'Pending Update' } as const;

/**
 * Stored profile → the wire shape. Lists every field it returns, so nothing internal
 * leaks, and leaves out inactive elements (spec: inactive elements are not returned) and
 * what the view hides (consents, custom fields and preferences outside the caller's
 * scope; implied preferences unless asked for).
 */
export function toProfileDto(
  profileId: number,
  data: ProfileData,
  pending: boolean,
  view: ProfileView = FULL_VIEW,
): ProfileDto {
  const toConsents = consentMapper(view);
  const toPreferences = preferenceMapper(view);
  const toEmail = emailMapper(toConsents, toPreferences);
  const toPhone = phoneMapper(toConsents, toPreferences);
  const toAddress = addressMapper(toConsents, toPreferences);
  return {
    ProfileId: profileId,
    ...toStandardFieldsDto(data, pending ? UPDATE_STATUS.pending : UPDATE_STATUS.complete),
    Consents: toConsents(data.Consents),
    CustomFields: active(data.CustomFields)
      .filter((field) => canSeeCustomField(view, field.Name))
      .map((field) => toCustomFieldDto(field, true)),
    Groups: active(data.Groups).map(toGroup),
    ProfileTags: active(data.ProfileTags).map((tag) => ({ Name: tag.Name })),
    Addresses: active(data.Addresses).map(toAddress),
    Emails: active(data.Emails).map(toEmail),
    PhoneNumbers: active(data.PhoneNumbers).map(toPhone),
    ProfilePreferences: toPreferences(data.ProfilePreferences),
    AlternateIds: active(data.AlternateIds).map(toAlternateId),
  };
}

/**
 * A profile's standard fields on the wire, the profile's UpdateStatus among them when given
 * (a history entry's snapshot of them has none).
 */
export function toStandardFieldsDto(data: StandardSnapshot, UpdateStatus?: string): ProfileDto {
  const name = data.CustomerName;
  return {
    IsActive: data.IsActive,
    Edited: toEdited(data.Edited),
    RegistrationConfirmed: data.RegistrationConfirmed,
    CustomerType: data.CustomerType,
    PreserveConsents: data.PreserveConsents,
    PreservePreferences: data.PreservePreferences,
    CustomerName: name
      ? {
          FirstName: name.FirstName,
          MiddleName: name.MiddleName,
          LastName: name.LastName,
          Prefix: name.Prefix,
          Suffix: name.Suffix,
        }
      : undefined,
    DefaultLocale: data.DefaultLocale,
    ...(UpdateStatus === undefined ? {} : { UpdateStatus }),
    ReasonCode: data.ReasonCode,
  };
}

/** A profile whose create is accepted but not yet applied. */
export function toPendingProfileDto(profileId: number): ProfileDto {
  return { ProfileId: profileId, UpdateStatus: UPDATE_STATUS.pending };
}

function active<T extends { IsActive?: boolean }>(elements: T[] | undefined): T[] {
  return (elements ?? []).filter((element) => element.IsActive !== false);
}

/** An Edited stamp on the wire (a profile's elements, a history entry's snapshot). */
export function toEdited(edited: Edited | undefined): EditedDto | undefined {
  if (!edited) return undefined;
  return {
    CreateDate: edited.CreateDate,
    CreatedBy: edited.CreatedBy,
    ModifiedDate: edited.ModifiedDate,
    ModifiedBy: edited.ModifiedBy,
  };
}

type ConsentsMapper = (consents: StoredConsent[] | undefined) => ConsentDto[];
type PreferencesMapper = (preferences: StoredPreference[] | undefined) => PreferenceDto[];

/** Active consents of the types the view may see. */
function consentMapper(view: ProfileView): ConsentsMapper {
  return (consents) =>
    active(consents)
      .filter((consent) => canSeeConsentType(view, consent.ConsentType))
      .map(toConsent);
}

/**
 * Active preferences the view may see, with their visible consent associations; an
 * `archived` view (a bulk export) adds the inactive ones, marked `IsActive: false` (active
 * ones stay as a retrieval shows them, without the field).
 */
function preferenceMapper(view: ProfileView): PreferencesMapper {
  return (preferences) =>
    (view.archived ? (preferences ?? []) : active(preferences))
      .filter((preference) => canSeePreference(view, preference))
      .map((preference) => {
        const dto = toPreference(preference, view);
        return preference.IsActive === false ? { ...dto, IsActive: false } : dto;
      });
}

function toConsent(consent: StoredConsent): ConsentDto {
  return toConsentDto(consent, true);
}

/** A stored consent on the wire, `IsActive` as the reader tells it (a profile shows active ones). */
export function toConsentDto(consent: StoredConsent, IsActive: boolean): ConsentDto {
  return {
    ConsentType: consent.ConsentType,
    ConsentVersion: consent.ConsentVersion,
    Locale: consent.Locale,
    ConsentStatus: consent.ConsentStatus,
    ReasonCode: consent.ReasonCode,
    ConsentDate: consent.ConsentDate,
    ExpirationDate: consent.ExpirationDate,
    SourceId: consent.SourceId,
    Expired: consent.Expired ?? false,
    Edited: toEdited(consent.Edited),
    UpdatedVersionPending: consent.UpdatedVersionPending ?? false,
    ...confirmationFields(consent),
    IsActive,
  };
}

/** A consent's double opt-in fields, when it has them (docs/double-opt-in.md). */
export function confirmationFields(
  consent: Pick<StoredConsent, 'PendingConfirmation' | 'Confirmation'>,
): Pick<ConsentDto, 'PendingConfirmation' | 'Confirmation'> {
  const pending = consent.PendingConfirmation;
  const evidence = consent.Confirmation;
  return {
    ...(pending
      ? { PendingConfirmation: { Id: pending.Id, RequestedDate: pending.RequestedDate } }
      : {}),
    ...(evidence
      ? {
          Confirmation: {
            Method: evidence.Method,
            ConfirmedDate: evidence.ConfirmedDate,
            ...(evidence.LinkId ? { LinkId: evidence.LinkId } : {}),
            ...(evidence.IpAddress ? { IpAddress: evidence.IpAddress } : {}),
            ...(evidence.UserAgent ? { UserAgent: evidence.UserAgent } : {}),
            ...(evidence.Evidence ? { Evidence: evidence.Evidence } : {}),
          },
        }
      : {}),
  };
}

function toConsentAssociation(association: StoredConsentAssociation): ConsentAssociationDto {
  return {
    ConsentType: association.ConsentType,
    ConsentVersion: association.ConsentVersion,
    IsActive: true,
    Locale: association.Locale,
    ReasonCode: association.ReasonCode,
  };
}

function toPreference(preference: StoredPreference, view: ProfileView): PreferenceDto {
  return {
    ProgramId: preference.ProgramId,
    ChannelId: preference.ChannelId,
    FilterId: preference.FilterId,
    FrequencyId: preference.FrequencyId,
    ConsentAssociations: active(preference.ConsentAssociations)
      .filter((association) => canSeeConsentType(view, association.ConsentType))
      .map(toConsentAssociation),
    MatchType: preference.MatchType,
    ReasonCode: preference.ReasonCode,
    PreferenceStatus: preference.PreferenceStatus,
    UserId: preference.UserId,
    SourceId: preference.SourceId,
    ExpirationDate: preference.ExpirationDate,
    LastModifiedDate: preference.LastModifiedDate,
    CustomerDate: preference.CustomerDate,
    PreferenceType: preference.PreferenceType,
    PreferenceAttributes: (preference.PreferenceAttributes ?? []).map((attribute) => ({
      Key: attribute.Key,
      Value: attribute.Value,
    })),
    ...confirmationFields(preference),
  };
}

const emailMapper =
  (toConsents: ConsentsMapper, toPreferences: PreferencesMapper) =>
  (email: StoredEmail): EmailDto => ({
    EmailPreferences: toPreferences(email.EmailPreferences),
    ...emailFields(email),
    Consents: toConsents(email.Consents),
    IsActive: true,
    Edited: toEdited(email.Edited),
  });

const phoneMapper =
  (toConsents: ConsentsMapper, toPreferences: PreferencesMapper) =>
  (phone: StoredPhone): PhoneDto => ({
    PhonePreferences: toPreferences(phone.PhonePreferences),
    ...phoneFields(phone),
    Consents: toConsents(phone.Consents),
    IsMobile: phone.IsMobile,
    IsActive: true,
    Edited: toEdited(phone.Edited),
  });

const addressMapper =
  (toConsents: ConsentsMapper, toPreferences: PreferencesMapper) =>
  (address: StoredAddress): AddressDto => ({
    AddressPreferences: toPreferences(address.AddressPreferences),
    AddressType: address.AddressType,
    IsActive: true,
    IsDefault: address.IsDefault,
    Consents: toConsents(address.Consents),
    ...postalFields(address),
    Edited: toEdited(address.Edited),
  });

/*
 * A contact element's own fields on the wire, in the order its DTO lists them: a profile's
 * element (with its nested lists around them) and a history entry's snapshot of one.
 */

export function emailFields(
  email: EmailSnapshot,
): Pick<EmailDto, 'EmailAddressType' | 'EmailAddress' | 'IsDefault'> {
  return {
    EmailAddressType: email.EmailAddressType,
    EmailAddress: email.EmailAddress,
    IsDefault: email.IsDefault,
  };
}

export function phoneFields(
  phone: PhoneSnapshot,
): Pick<PhoneDto, 'PhoneType' | 'PhoneNumber' | 'PhoneNumberNumeric' | 'IsDefault'> {
  return {
    PhoneType: phone.PhoneType,
    PhoneNumber: phone.PhoneNumber,
    PhoneNumberNumeric: phone.PhoneNumberNumeric,
    IsDefault: phone.IsDefault,
  };
}

/** An address's lines, place and CASS fields (what follows its type, state and consents). */
type PostalFieldsDto = Omit<
  AddressDto,
  'AddressPreferences' | 'AddressType' | 'IsActive' | 'IsDefault' | 'Consents' | 'Edited'
>;

export function postalFields(address: AddressSnapshot): PostalFieldsDto {
  return {
    Address1: address.Address1,
    Address2: address.Address2,
    City: address.City,
    StateProvince: address.StateProvince,
    PostalCode: address.PostalCode,
    Country: address.Country,
    CountryCode_Numeric: address.CountryCode_Numeric,
    CountryCode_Alpha2: address.CountryCode_Alpha2,
    CountryCode_Alpha3: address.CountryCode_Alpha3,
    CassAddress1: address.CassAddress1,
    CassAddress2: address.CassAddress2,
    CassCity: address.CassCity,
    CassStateProvince: address.CassStateProvince,
    CassPostalCode: address.CassPostalCode,
    CassStatus: address.CassStatus,
  };
}

/** A custom field on the wire, `IsActive` as the reader tells it (a profile shows active ones). */
export function toCustomFieldDto(field: StoredCustomField, IsActive: boolean): CustomFieldDto {
  return { Name: field.Name, Value: field.Value, IsActive, Edited: toEdited(field.Edited) };
}

function toGroup(group: StoredGroup): GroupDto {
  return {
    GroupType: group.GroupType,
    GroupName: group.GroupName,
    IsPrimary: group.IsPrimary ?? false,
    IsActive: true,
    Edited: toEdited(group.Edited),
  };
}

function toAlternateId(alternateId: StoredAlternateId): AlternateIdDto {
  return {
    AlternateIdType: alternateId.AlternateIdType,
    AlternateId: alternateId.AlternateId,
    IsActive: true,
    Edited: toEdited(alternateId.Edited),
  };
}
