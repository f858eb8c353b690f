import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptions } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { NestedArray, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';

/*
 * Body of PUT /{clientId}/Profile/Preferences/{profileId}/Archive (compatibility notes §2).
 * In each item, every selecting field given narrows what it archives; an item must give
 * at least one (checked with the rest of the body in domain/preference-archive.ts).
 */

/** A selecting text field: optional, but not blank when given. */
function Selector(maxLength: number, description: string, options: ApiPropertyOptions = {}) {
  return applyDecorators(
    OptionalText(maxLength, { description, pattern: '\\S', ...options }),
    Matches(/\S/, { message: 'must not be blank' }),
  );
}

const FILTER_ID =
  'Only the preference on this filter (the filter ID, as preferences store it); absent: every filter';
const REASON_CODE =
  "Stored on each preference this item archives as the preference attribute $Reason_Code; absent: the body's Reason_Code";

export class ArchiveEmailPreferenceDto {
  @Selector(100, 'Emails of this type (case-insensitive); absent: any type')
  EmailAddressType?: string;

  @Selector(
    256,
    'The email with this address (case-insensitive); absent: every email (of the type)',
  )
  EmailAddress?: string;

  @Selector(50, FILTER_ID)
  FilterId?: string;

  @OptionalText(256, { description: REASON_CODE, nullable: true })
  Reason_Code?: string;
}

export class ArchivePhoneNumberPreferenceDto {
  @Selector(100, 'Phones of this type (case-insensitive); absent: any type')
  PhoneType?: string;

  @Selector(
    50,
    'The phone with these digits (punctuation ignored); absent: every phone (of the type)',
    {
      example: '+1 (555) 010-2030',
      pattern: '\\d',
    },
  )
  @Matches(/\d/, { message: 'must contain digits' })
  PhoneNumber?: string;

  @ReadOnlyField({ type: 'integer', description: 'Ignored: PhoneNumber selects the phone' })
  PhoneNumberNumeric?: number;

  @Selector(50, FILTER_ID)
  FilterId?: string;

  @OptionalText(256, { description: REASON_CODE, nullable: true })
  Reason_Code?: string;
}

/** Our design (no public definition): the address's matching key, plus the filter. */
export class ArchiveAddressPreferenceDto {
  @Selector(100, 'Addresses of this type (case-insensitive); absent: any type')
  AddressType?: string;

  @Selector(256, 'Addresses with this first line (case-insensitive, runs of spaces folded)')
  Address1?: string;

  @Selector(256, 'Addresses with this postal code (case-insensitive, spaces ignored)')
  PostalCode?: string;

  @Selector(50, FILTER_ID)
  FilterId?: string;

  @OptionalText(256, { description: REASON_CODE, nullable: true })
  Reason_Code?: string;
}

/** Our design (no public definition): profile-level preferences by program and filter. */
export class ArchiveProfilePreferenceDto {
  @Selector(50, 'Profile preferences of this program; absent: every program')
  ProgramId?: string;

  @Selector(50, FILTER_ID)
  FilterId?: string;

  @OptionalText(256, { description: REASON_CODE, nullable: true })
  Reason_Code?: string;
}

export class ArchivePreferencesDto {
  @OptionalBoolean({
    default: false,
    description:
      'true: archive every preference on the profile and on all its contact elements (items still give the reason of what they select)',
  })
  GlobalDeactivate?: boolean;

  @OptionalText(256, {
    description: 'Reason for every archived preference whose item gives none ($Reason_Code)',
    nullable: true,
  })
  Reason_Code?: string;

  @NestedArray(() => ArchivePhoneNumberPreferenceDto)
  PhoneNumbers?: ArchivePhoneNumberPreferenceDto[];

  @NestedArray(() => ArchiveAddressPreferenceDto)
  Addresses?: ArchiveAddressPreferenceDto[];

  @NestedArray(() => ArchiveEmailPreferenceDto)
  Emails?: ArchiveEmailPreferenceDto[];

  @NestedArray(() => ArchiveProfilePreferenceDto)
  ProfilePreferences?: ArchiveProfilePreferenceDto[];
}
