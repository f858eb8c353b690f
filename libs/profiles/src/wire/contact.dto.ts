import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsString, Matches, MaxLength } from 'class-validator';
import { ConsentDto } from './consent.dto';
import { EditedDto, NestedArray, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';
import { PreferenceDto } from './preference.dto';

export class EmailDto {
  @NestedArray(() => PreferenceDto)
  EmailPreferences?: PreferenceDto[];

  @OptionalText(100)
  EmailAddressType?: string;

  @ApiProperty({ maxLength: 256, example: 'jane@example.com' })
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(256)
  EmailAddress: string;

  @OptionalBoolean()
  IsDefault?: boolean;

  @NestedArray(() => ConsentDto)
  Consents?: ConsentDto[];

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

/** What a PhoneNumber may hold: digits, spaces, +, -, ., / and parentheses. */
const PHONE_NUMBER_PATTERN = /^\+?[\d\s().\-/]*\d[\d\s().\-/]*$/;

export class PhoneDto {
  @NestedArray(() => PreferenceDto)
  PhonePreferences?: PreferenceDto[];

  @OptionalText(100)
  PhoneType?: string;

  @ApiProperty({
    example: '+1 (555) 010-2030',
    description: 'Digits with any punctuation',
    maxLength: 50,
    pattern: PHONE_NUMBER_PATTERN.source,
  })
  @IsString()
  @MaxLength(50)
  @Matches(PHONE_NUMBER_PATTERN, {
    message: 'must be a phone number (digits, spaces, +, -, ., /, parentheses)',
  })
  PhoneNumber: string;

  @ReadOnlyField({ type: 'integer', description: 'The digits of PhoneNumber' })
  PhoneNumberNumeric?: number;

  @OptionalBoolean()
  IsDefault?: boolean;

  @NestedArray(() => ConsentDto)
  Consents?: ConsentDto[];

  @OptionalBoolean()
  IsMobile?: boolean;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

export class AddressDto {
  @NestedArray(() => PreferenceDto)
  AddressPreferences?: PreferenceDto[];

  @ApiProperty({ description: 'Every mailing address has an address type', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  AddressType: string;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @OptionalBoolean()
  IsDefault?: boolean;

  @NestedArray(() => ConsentDto)
  Consents?: ConsentDto[];

  @OptionalText(256)
  Address1?: string;

  @OptionalText(256)
  Address2?: string;

  @OptionalText(256)
  City?: string;

  @OptionalText(256)
  StateProvince?: string;

  @OptionalText(256)
  PostalCode?: string;

  @OptionalText(256)
  Country?: string;

  @OptionalText(256)
  CountryCode_Numeric?: string;

  @OptionalText(256)
  CountryCode_Alpha2?: string;

  @OptionalText(256)
  CountryCode_Alpha3?: string;

  @OptionalText(256)
  CassAddress1?: string;

  @OptionalText(256)
  CassAddress2?: string;

  @OptionalText(256)
  CassCity?: string;

  @OptionalText(256)
  CassStateProvince?: string;

  @OptionalText(256)
  CassPostalCode?: string;

  @OptionalText(256)
  CassStatus?: string;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}
