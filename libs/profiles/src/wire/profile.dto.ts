import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsNotEmpty, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { ConsentDto } from './consent.dto';
import { AddressDto, EmailDto, PhoneDto } from './contact.dto';
import { EditedDto, NestedArray, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';
import { PreferenceDto } from './preference.dto';

export class CustomerNameDto {
  @OptionalText(100)
  FirstName?: string;

  @OptionalText(100)
  MiddleName?: string;

  @OptionalText(100)
  LastName?: string;

  @OptionalText(50)
  Prefix?: string;

  @OptionalText(50)
  Suffix?: string;
}

export class CustomFieldDto {
  @ApiProperty({ minLength: 1, maxLength: 94 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(94)
  Name: string;

  @OptionalText(4000, { description: 'SelectList values are joined with ::' })
  Value?: string;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

export class GroupDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  GroupType: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  GroupName: string;

  @OptionalBoolean()
  IsPrimary?: boolean;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

export class ProfileTagDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  Name: string;
}

export class AlternateIdDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  AlternateIdType: string;

  @ApiProperty({ minLength: 1, maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  AlternateId: string;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;

  @ReadOnlyField({ type: 'integer' })
  AlternateIdTypeLink?: number;
}

/**
 * The Profile resource, exactly as the spec names it. The same class validates request
 * bodies (create, merge, overwrite) and documents responses.
 */
export class ProfileDto {
  @ReadOnlyField({ type: 'integer', minimum: 1, format: 'int32' })
  ProfileId?: number;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;

  @OptionalBoolean()
  RegistrationConfirmed?: boolean;

  @ApiPropertyOptional({
    minLength: 1,
    description: 'Name of a customer type; required on create and overwrite',
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  CustomerType?: string;

  @OptionalBoolean({
    default: true,
    description:
      "false on a merge (POST) deactivates the contact elements' consents the body does not restate; acts on that write only (stored and returned as sent)",
  })
  PreserveConsents?: boolean;

  @OptionalBoolean({
    default: true,
    description:
      'false on a merge (POST) deactivates every preference of the profile the body does not restate; acts on that write only (stored and returned as sent)',
  })
  PreservePreferences?: boolean;

  @ApiPropertyOptional({ type: CustomerNameDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerNameDto)
  CustomerName?: CustomerNameDto;

  @OptionalText(15, { example: 'en-us' })
  DefaultLocale?: string;

  @ReadOnlyField({
    enum: ['Complete', 'Pending Update'],
    description:
      'Complete: every accepted write of the profile is applied; Pending Update: a write is accepted and not applied yet',
  })
  UpdateStatus?: string;

  @OptionalText(256)
  ReasonCode?: string;

  @NestedArray(() => ConsentDto)
  Consents?: ConsentDto[];

  @NestedArray(() => CustomFieldDto)
  CustomFields?: CustomFieldDto[];

  @NestedArray(() => GroupDto)
  Groups?: GroupDto[];

  @NestedArray(() => ProfileTagDto)
  ProfileTags?: ProfileTagDto[];

  @NestedArray(() => AddressDto)
  Addresses?: AddressDto[];

  @NestedArray(() => EmailDto)
  Emails?: EmailDto[];

  @NestedArray(() => PhoneDto)
  PhoneNumbers?: PhoneDto[];

  @NestedArray(() => PreferenceDto)
  ProfilePreferences?: PreferenceDto[];

  // null as absent (the validation takes it as absent).
  @NestedArray(() => AlternateIdDto, { nullable: true })
  AlternateIds?: AlternateIdDto[];
}

/** The answer to an accepted profile write (202). */
export class ProfileSubmissionResultDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The first alternate id of the body; null when it has none',
  })
  AlternateId: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The type of AlternateId' })
  AlternateIdType: string | null;

  @ApiProperty({ type: 'integer', minimum: 1, format: 'int32' })
  ProfileId: number;

  @ApiProperty({ example: 'Pending Update' })
  UpdateStatus: string;

  @ApiProperty({ format: 'date-time' })
  SubmittedUtcTime: string;
}
