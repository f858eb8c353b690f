import type { EditedDto } from '@app/shared';
import type { ProfileHistory } from '../domain/profile-history.schema';
import type { ConsentAssociationDto, ConsentDto } from '../dto/consent.dto';
import type { AddressDto, EmailDto, PhoneDto } from '../dto/contact.dto';
import type { PreferenceDto } from '../dto/preference.dto';
import type { AlternateIdDto, CustomFieldDto, ProfileDto } from '../dto/profile.dto';
import {
  canSeeConsentType,
  canSeeCustomField,
  canSeeProgram,
  type ProfileView,
} from '../domain/profile-view';

type Item = Record<string, unknown>;

const text = (item: Item, field: string) => item[field] as string | undefined;

/** A preference in history also says whether it was active (archived or removed: false). */
export type HistoryPreferenceDto = PreferenceDto & { IsActive: boolean };

/**
 * Whether the caller's view may see an entry: custom fields, consents and preferences
 * (by program) within the user group's scope. History shows implied preferences too: the
 * `implied` flag is for current-state retrieval.
 */
export function canSeeHistoryEntry(view: ProfileView, entry: ProfileHistory): boolean {
  switch (entry.category) {
    case 'customField':
      return canSeeCustomField(view, entry.snapshot.Name);
    case 'consent':
      return canSeeConsentType(view, entry.snapshot.ConsentType);
    case 'preference':
      return canSeeProgram(view, entry.snapshot.ProgramId);
    default:
      return true;
  }
}

/**
 * A history entry → a Profile-shaped object: ProfileId, the category's part (one item,
 * inside its contact element when it has one) and the profile's current AlternateIds.
 * Lists every field it returns; inactive states are shown as such.
 */
export function toHistoryEntryDto(
  profileId: number,
  entry: ProfileHistory,
  alternateIds: AlternateIdDto[],
  view: ProfileView,
): ProfileDto {
  const item = entry.snapshot;
  return { ProfileId: profileId, ...categoryPart(entry, item, view), AlternateIds: alternateIds };
}

function categoryPart(entry: ProfileHistory, item: Item, view: ProfileView): ProfileDto {
  switch (entry.category) {
    case 'standard':
      return toStandardFields(item);
    case 'customField':
      return { CustomFields: [toCustomField(item)] };
    case 'contact':
      if (entry.list === 'Emails') return { Emails: [toEmail(item)] };
      if (entry.list === 'PhoneNumbers') return { PhoneNumbers: [toPhone(item)] };
      return { Addresses: [toAddress(item)] };
    case 'preference':
      return inContainer(entry, entry.list ?? 'ProfilePreferences', toPreference(item, view));
    case 'consent':
      return inContainer(entry, 'Consents', toConsent(item));
  }
}

/** The item alone (profile level), or inside the contact element it belongs to. */
function inContainer(entry: ProfileHistory, list: string, item: object): ProfileDto {
  const container = entry.container;
  if (!container) return { [list]: [item] } as ProfileDto;
  const fields = container.fields;
  const element: Item =
    container.list === 'Emails'
      ? { EmailAddress: fields.EmailAddress, EmailAddressType: fields.EmailAddressType }
      : container.list === 'PhoneNumbers'
        ? { PhoneNumber: fields.PhoneNumber, PhoneType: fields.PhoneType }
        : {
            AddressType: fields.AddressType,
            Address1: fields.Address1,
            PostalCode: fields.PostalCode,
          };
  element[list] = [item];
  return { [container.list]: [element] } as ProfileDto;
}

function toStandardFields(item: Item): ProfileDto {
  const name = item.CustomerName as Item | undefined;
  return {
    IsActive: item.IsActive as boolean,
    Edited: toEdited(item.Edited),
    RegistrationConfirmed: item.RegistrationConfirmed as boolean | undefined,
    CustomerType: item.CustomerType as string,
    PreserveConsents: item.PreserveConsents as boolean,
    PreservePreferences: item.PreservePreferences as boolean,
    CustomerName: name
      ? {
          FirstName: name.FirstName as string | undefined,
          MiddleName: name.MiddleName as string | undefined,
          LastName: name.LastName as string | undefined,
          Prefix: name.Prefix as string | undefined,
          Suffix: name.Suffix as string | undefined,
        }
      : undefined,
    DefaultLocale: item.DefaultLocale as string | undefined,
    ReasonCode: item.ReasonCode as string | undefined,
  };
}

function isActive(item: Item): boolean {
  return item.IsActive !== false;
}

function toEdited(value: unknown): EditedDto | undefined {
  const edited = value as Item | undefined;
  if (!edited) return undefined;
  return {
    CreateDate: edited.CreateDate as string,
    CreatedBy: edited.CreatedBy as string,
    ModifiedDate: edited.ModifiedDate as string,
    ModifiedBy: edited.ModifiedBy as string,
  };
}

function toCustomField(item: Item): CustomFieldDto {
  return {
    Name: item.Name as string,
    Value: item.Value as string | undefined,
    IsActive: isActive(item),
    Edited: toEdited(item.Edited),
  };
}

function toEmail(item: Item): EmailDto {
  return {
    EmailAddressType: item.EmailAddressType as string | undefined,
    EmailAddress: item.EmailAddress as string,
    IsDefault: item.IsDefault as boolean | undefined,
    IsActive: isActive(item),
    Edited: toEdited(item.Edited),
  };
}

function toPhone(item: Item): PhoneDto {
  return {
    PhoneType: item.PhoneType as string | undefined,
    PhoneNumber: item.PhoneNumber as string,
    PhoneNumberNumeric: item.PhoneNumberNumeric as number | undefined,
    IsDefault: item.IsDefault as boolean | undefined,
    IsMobile: item.IsMobile as boolean | undefined,
    IsActive: isActive(item),
    Edited: toEdited(item.Edited),
  };
}

function toAddress(item: Item): AddressDto {
  return {
    AddressType: item.AddressType as string,
    IsActive: isActive(item),
    IsDefault: item.IsDefault as boolean | undefined,
    Address1: text(item, 'Address1'),
    Address2: text(item, 'Address2'),
    City: text(item, 'City'),
    StateProvince: text(item, 'StateProvince'),
    PostalCode: text(item, 'PostalCode'),
    Country: text(item, 'Country'),
    CountryCode_Numeric: text(item, 'CountryCode_Numeric'),
    CountryCode_Alpha2: text(item, 'CountryCode_Alpha2'),
    CountryCode_Alpha3: text(item, 'CountryCode_Alpha3'),
    CassAddress1: text(item, 'CassAddress1'),
    CassAddress2: text(item, 'CassAddress2'),
    CassCity: text(item, 'CassCity'),
    CassStateProvince: text(item, 'CassStateProvince'),
    CassPostalCode: text(item, 'CassPostalCode'),
    CassStatus: text(item, 'CassStatus'),
    Edited: toEdited(item.Edited),
  };
}

function toConsent(item: Item): ConsentDto {
  return {
    ConsentType: text(item, 'ConsentType'),
    ConsentVersion: text(item, 'ConsentVersion'),
    Locale: text(item, 'Locale'),
    ConsentStatus: item.ConsentStatus as number | undefined,
    ReasonCode: text(item, 'ReasonCode'),
    ConsentDate: text(item, 'ConsentDate'),
    ExpirationDate: text(item, 'ExpirationDate'),
    SourceId: text(item, 'SourceId'),
    Expired: (item.Expired as boolean | undefined) ?? false,
    Edited: toEdited(item.Edited),
    UpdatedVersionPending: (item.UpdatedVersionPending as boolean | undefined) ?? false,
    IsActive: isActive(item),
  };
}

function toConsentAssociation(item: Item): ConsentAssociationDto {
  return {
    ConsentType: text(item, 'ConsentType'),
    ConsentVersion: text(item, 'ConsentVersion'),
    IsActive: isActive(item),
    Locale: text(item, 'Locale'),
    ReasonCode: text(item, 'ReasonCode'),
  };
}

function toPreference(item: Item, view: ProfileView): HistoryPreferenceDto {
  const associations = (item.ConsentAssociations as Item[] | undefined) ?? [];
  const attributes = (item.PreferenceAttributes as Item[] | undefined) ?? [];
  return {
    ProgramId: text(item, 'ProgramId'),
    ChannelId: text(item, 'ChannelId'),
    FilterId: text(item, 'FilterId'),
    FrequencyId: text(item, 'FrequencyId'),
    ConsentAssociations: associations
      .filter((association) => canSeeConsentType(view, association.ConsentType))
      .map(toConsentAssociation),
    MatchType: text(item, 'MatchType'),
    ReasonCode: text(item, 'ReasonCode'),
    PreferenceStatus: text(item, 'PreferenceStatus'),
    UserId: text(item, 'UserId'),
    SourceId: text(item, 'SourceId'),
    ExpirationDate: text(item, 'ExpirationDate'),
    LastModifiedDate: text(item, 'LastModifiedDate'),
    CustomerDate: text(item, 'CustomerDate'),
    PreferenceType: item.PreferenceType as number | undefined,
    PreferenceAttributes: attributes.map((attribute) => ({
      Key: attribute.Key as string,
      Value: attribute.Value as string | undefined,
    })),
    IsActive: isActive(item),
  };
}
