import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ConsentDto } from './consent.dto';
import { AddressDto, EmailDto, PhoneDto } from './contact.dto';
import { EditedDto } from './edited.dto';
import { PreferenceDto } from './preference.dto';
import { ReadOnlyField } from './read-only.decorator';

export class CustomerNameDto {
  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  FirstName?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  MiddleName?: string;

  @ApiPropertyOptional({ maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  LastName?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  Prefix?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  Suffix?: string;
}

export class CustomFieldDto {
  @ApiProperty({ minLength: 1, maxLength: 94 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(94)
  Name: string;

  @ApiPropertyOptional({ maxLength: 4000, description: 'SelectList values are joined with ::' })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  Value?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

export class GroupDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  GroupType: string;

  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  GroupName: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  IsPrimary?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;
}

export class ProfileTagDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  Name: string;
}

export class AlternateIdDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  AlternateIdType: string;

  @ApiProperty({ maxLength: 256 })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  AlternateId: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
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
  @ReadOnlyField({ type: 'integer', format: 'int32' })
  ProfileId?: number;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  RegistrationConfirmed?: boolean;

  @ApiPropertyOptional({
    description: 'Name of a customer type; required on create and overwrite',
    maxLength: 100,
  })
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  CustomerType?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  PreserveConsents?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  PreservePreferences?: boolean;

  @ApiPropertyOptional({ type: CustomerNameDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => CustomerNameDto)
  CustomerName?: CustomerNameDto;

  @ApiPropertyOptional({ example: 'en-us', maxLength: 15 })
  @IsOptional()
  @IsString()
  @MaxLength(15)
  DefaultLocale?: string;

  @ReadOnlyField({ enum: ['Complete', 'Pending Update'] })
  UpdateStatus?: string;

  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional()
  @IsString()
  @MaxLength(256)
  ReasonCode?: string;

  @ApiPropertyOptional({ type: [ConsentDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConsentDto)
  Consents?: ConsentDto[];

  @ApiPropertyOptional({ type: [CustomFieldDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => CustomFieldDto)
  CustomFields?: CustomFieldDto[];

  @ApiPropertyOptional({ type: [GroupDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => GroupDto)
  Groups?: GroupDto[];

  @ApiPropertyOptional({ type: [ProfileTagDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ProfileTagDto)
  ProfileTags?: ProfileTagDto[];

  @ApiPropertyOptional({ type: [AddressDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AddressDto)
  Addresses?: AddressDto[];

  @ApiPropertyOptional({ type: [EmailDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => EmailDto)
  Emails?: EmailDto[];

  @ApiPropertyOptional({ type: [PhoneDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PhoneDto)
  PhoneNumbers?: PhoneDto[];

  @ApiPropertyOptional({ type: [PreferenceDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PreferenceDto)
  ProfilePreferences?: PreferenceDto[];

  @ApiPropertyOptional({ type: [AlternateIdDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => AlternateIdDto)
  AlternateIds?: AlternateIdDto[];
}

/** The answer to an accepted profile write (202). */
export class ProfileSubmissionResultDto {
  @ApiPropertyOptional({ nullable: true })
  AlternateId: string | null;

  @ApiPropertyOptional({ nullable: true })
  AlternateIdType: string | null;

  @ApiProperty({ type: 'integer', format: 'int32' })
  ProfileId: number;

  @ApiProperty({ example: 'Pending Update' })
  UpdateStatus: string;

  @ApiProperty({ format: 'date-time' })
  SubmittedUtcTime: string;
}
