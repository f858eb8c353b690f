import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsEmail,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ConsentDto } from './consent.dto';
import { EditedDto } from './edited.dto';
import { PreferenceDto } from './preference.dto';
import { ReadOnlyField } from './read-only.decorator';

const consentsProperty = () => [
  ApiPropertyOptional({ type: [ConsentDto] }),
  IsOptional(),
  IsArray(),
  ValidateNested({ each: true }),
  Type(() => ConsentDto),
];

function apply(target: object, key: string, decorators: PropertyDecorator[]): void {
  for (const decorator of decorators) decorator(target, key);
}

export class EmailDto {
  @ApiPropertyOptional({ type: [PreferenceDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PreferenceDto)
  EmailPreferences?: PreferenceDto[];

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  EmailAddressType?: string;

  @ApiPropertyOptional({ maxLength: 256, example: 'jane@example.com' })
  @IsEmail({}, { message: 'must be an email address' })
  @MaxLength(256)
  EmailAddress: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  IsDefault?: boolean;

  Consents?: ConsentDto[];

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}
apply(EmailDto.prototype, 'Consents', consentsProperty());

export class PhoneDto {
  @ApiPropertyOptional({ type: [PreferenceDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PreferenceDto)
  PhonePreferences?: PreferenceDto[];

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  PhoneType?: string;

  @ApiPropertyOptional({ example: '+1 (555) 010-2030', description: 'Digits with any punctuation' })
  @IsString()
  @MaxLength(50)
  @Matches(/^\+?[\d\s().\-/]*\d[\d\s().\-/]*$/, {
    message: 'must be a phone number (digits, spaces, +, -, ., /, parentheses)',
  })
  PhoneNumber: string;

  @ReadOnlyField({ type: 'integer', description: 'The digits of PhoneNumber' })
  PhoneNumberNumeric?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  IsDefault?: boolean;

  Consents?: ConsentDto[];

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  IsMobile?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}
apply(PhoneDto.prototype, 'Consents', consentsProperty());

const ADDRESS_TEXT_FIELDS = [
  'Address1',
  'Address2',
  'City',
  'StateProvince',
  'PostalCode',
  'Country',
  'CountryCode_Numeric',
  'CountryCode_Alpha2',
  'CountryCode_Alpha3',
  'CassAddress1',
  'CassAddress2',
  'CassCity',
  'CassStateProvince',
  'CassPostalCode',
  'CassStatus',
] as const;

export class AddressDto {
  @ApiPropertyOptional({ type: [PreferenceDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PreferenceDto)
  AddressPreferences?: PreferenceDto[];

  @ApiPropertyOptional({ description: 'Every mailing address has an address type', maxLength: 100 })
  @IsString()
  @MaxLength(100)
  AddressType: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  IsDefault?: boolean;

  Consents?: ConsentDto[];

  Address1?: string;
  Address2?: string;
  City?: string;
  StateProvince?: string;
  PostalCode?: string;
  Country?: string;
  CountryCode_Numeric?: string;
  CountryCode_Alpha2?: string;
  CountryCode_Alpha3?: string;
  CassAddress1?: string;
  CassAddress2?: string;
  CassCity?: string;
  CassStateProvince?: string;
  CassPostalCode?: string;
  CassStatus?: string;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}
apply(AddressDto.prototype, 'Consents', consentsProperty());
for (const field of ADDRESS_TEXT_FIELDS) {
  apply(AddressDto.prototype, field, [
    ApiPropertyOptional({ type: String, maxLength: 256 }),
    IsOptional(),
    IsString(),
    MaxLength(256),
  ]);
}
export { ADDRESS_TEXT_FIELDS };
