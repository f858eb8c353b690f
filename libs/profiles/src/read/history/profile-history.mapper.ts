import type { EditedDto } from '@app/shared';
import type {
  HistorySnapshot,
  ProfileHistory,
  ProfileHistoryCategory,
} from '../../domain/profile-history.schema';
import type { AddressDto, EmailDto, PhoneDto } from '../../wire/contact.dto';
import type { AlternateIdDto, CustomFieldDto, ProfileDto } from '../../wire/profile.dto';
import { canSeeCustomField, type ProfileView } from '../../domain/profile-view';

const text = (item: HistorySnapshot, field: string) => item[field] as string | undefined;

/**
 * Whether the caller's view may see an entry of the profile's own categories: custom
 * fields within the user group's scope. (A rule module's categories judge their own.)
 */
export function canSeeHistoryEntry(view: ProfileView, entry: ProfileHistory): boolean {
  return entry.category !== 'customField' || canSeeCustomField(view, entry.snapshot.Name);
}

/**
 * A history entry → a Profile-shaped object: ProfileId, the category's part (one item,
 * inside its contact element when it has one) and the profile's current AlternateIds.
 * Lists every field it returns; inactive states are shown as such.
 */
export function toHistoryEntryDto(
  profileId: number,
  part: object,
  alternateIds: AlternateIdDto[],
): ProfileDto {
  return { ProfileId: profileId, ...part, AlternateIds: alternateIds };
}

/** The part of an entry of the profile's own categories. */
export function ownHistoryPart(entry: ProfileHistory): ProfileDto {
  const item = entry.snapshot;
  switch (entry.category as ProfileHistoryCategory) {
    case 'standard':
      return toStandardFields(item);
    case 'customField':
      return { CustomFields: [toCustomField(item)] };
    case 'contact':
      if (entry.list === 'Emails') return { Emails: [toEmail(item)] };
      if (entry.list === 'PhoneNumbers') return { PhoneNumbers: [toPhone(item)] };
      return { Addresses: [toAddress(item)] };
  }
}

/**
 * A rule module's history item in the answer: alone in its list (profile level), or in
 * that list inside the contact element it belongs to (named by its identifying fields).
 */
export function historyItemInContainer(
  entry: ProfileHistory,
  list: string,
  item: object,
): ProfileDto {
  const container = entry.container;
  if (!container) return { [list]: [item] } as ProfileDto;
  const fields = container.fields;
  const element: HistorySnapshot =
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

function toStandardFields(item: HistorySnapshot): ProfileDto {
  const name = item.CustomerName as HistorySnapshot | undefined;
  return {
    IsActive: item.IsActive as boolean,
    Edited: toHistoryEdited(item.Edited),
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

function isActive(item: HistorySnapshot): boolean {
  return item.IsActive !== false;
}

/** The Edited stamp of a history snapshot, on the wire. */
export function toHistoryEdited(value: unknown): EditedDto | undefined {
  const edited = value as HistorySnapshot | undefined;
  if (!edited) return undefined;
  return {
    CreateDate: edited.CreateDate as string,
    CreatedBy: edited.CreatedBy as string,
    ModifiedDate: edited.ModifiedDate as string,
    ModifiedBy: edited.ModifiedBy as string,
  };
}

function toCustomField(item: HistorySnapshot): CustomFieldDto {
  return {
    Name: item.Name as string,
    Value: item.Value as string | undefined,
    IsActive: isActive(item),
    Edited: toHistoryEdited(item.Edited),
  };
}

function toEmail(item: HistorySnapshot): EmailDto {
  return {
    EmailAddressType: item.EmailAddressType as string | undefined,
    EmailAddress: item.EmailAddress as string,
    IsDefault: item.IsDefault as boolean | undefined,
    IsActive: isActive(item),
    Edited: toHistoryEdited(item.Edited),
  };
}

function toPhone(item: HistorySnapshot): PhoneDto {
  return {
    PhoneType: item.PhoneType as string | undefined,
    PhoneNumber: item.PhoneNumber as string,
    PhoneNumberNumeric: item.PhoneNumberNumeric as number | undefined,
    IsDefault: item.IsDefault as boolean | undefined,
    IsMobile: item.IsMobile as boolean | undefined,
    IsActive: isActive(item),
    Edited: toHistoryEdited(item.Edited),
  };
}

function toAddress(item: HistorySnapshot): AddressDto {
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
    Edited: toHistoryEdited(item.Edited),
  };
}
