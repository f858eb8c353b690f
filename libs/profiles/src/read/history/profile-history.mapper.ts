import {
  type AddressSnapshot,
  type EmailSnapshot,
  isAddressEntry,
  isCustomFieldEntry,
  isEmailEntry,
  isPhoneEntry,
  isStandardEntry,
  type PhoneSnapshot,
  type ProfileHistory,
} from '../../domain/profile-history.schema';
import type { AddressDto, EmailDto, PhoneDto } from '../../wire/contact.dto';
import type { AlternateIdDto, ProfileDto } from '../../wire/profile.dto';
import {
  emailFields,
  phoneFields,
  postalFields,
  toCustomFieldDto,
  toEdited,
  toStandardFieldsDto,
} from '../../wire/profile.mapper';
import { canSeeCustomField, type ProfileView } from '../../domain/profile-view';

/**
 * Whether the caller's view may see an entry of the profile's own categories: custom
 * fields within the user group's scope. (A rule module's categories judge their own.)
 */
export function canSeeHistoryEntry(view: ProfileView, entry: ProfileHistory): boolean {
  return !isCustomFieldEntry(entry) || canSeeCustomField(view, entry.snapshot.Name);
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
  if (isStandardEntry(entry)) return toStandardFieldsDto(entry.snapshot);
  if (isCustomFieldEntry(entry)) {
    return { CustomFields: [toCustomFieldDto(entry.snapshot, isActive(entry.snapshot))] };
  }
  if (isEmailEntry(entry)) return { Emails: [toEmail(entry.snapshot)] };
  if (isPhoneEntry(entry)) return { PhoneNumbers: [toPhone(entry.snapshot)] };
  if (isAddressEntry(entry)) return { Addresses: [toAddress(entry.snapshot)] };
  return {};
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
  const element =
    container.list === 'Emails'
      ? { EmailAddress: fields.EmailAddress, EmailAddressType: fields.EmailAddressType }
      : container.list === 'PhoneNumbers'
        ? { PhoneNumber: fields.PhoneNumber, PhoneType: fields.PhoneType }
        : {
            AddressType: fields.AddressType,
            Address1: fields.Address1,
            PostalCode: fields.PostalCode,
          };
  return { [container.list]: [{ ...element, [list]: [item] }] } as ProfileDto;
}

function isActive(item: { IsActive?: boolean }): boolean {
  return item.IsActive !== false;
}

function toEmail(item: EmailSnapshot): EmailDto {
  return { ...emailFields(item), IsActive: isActive(item), Edited: toEdited(item.Edited) };
}

function toPhone(item: PhoneSnapshot): PhoneDto {
  return {
    ...phoneFields(item),
    IsMobile: item.IsMobile,
    IsActive: isActive(item),
    Edited: toEdited(item.Edited),
  };
}

function toAddress(item: AddressSnapshot): AddressDto {
  return {
    AddressType: item.AddressType,
    IsActive: isActive(item),
    IsDefault: item.IsDefault,
    ...postalFields(item),
    Edited: toEdited(item.Edited),
  };
}
