import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsIn,
  IsISO8601,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { ConsentAssociationDto } from './consent.dto';
import { ReadOnlyField } from './read-only.decorator';

export class PreferenceAttributeDto {
  @ApiPropertyOptional()
  @IsString()
  @MaxLength(100)
  Key: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  Value?: string;
}

export class PreferenceDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(50)
  ProgramId?: string;

  @ApiPropertyOptional({ description: 'Phone, Fax, Text, SMS, Email, Mail or Solicit' })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  ChannelId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(50)
  FilterId?: string;

  @ApiPropertyOptional({ maxLength: 20 })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  FrequencyId?: string;

  @ApiPropertyOptional({ type: [ConsentAssociationDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => ConsentAssociationDto)
  ConsentAssociations?: ConsentAssociationDto[];

  @ApiPropertyOptional({ enum: ['Expressed', 'Implied'] })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  MatchType?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  ReasonCode?: string;

  @ApiPropertyOptional({ enum: ['Active', 'Expired'] })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  PreferenceStatus?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  UserId?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  SourceId?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  ExpirationDate?: string;

  @ReadOnlyField({ format: 'date-time' })
  LastModifiedDate?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  CustomerDate?: string;

  @ApiPropertyOptional({ enum: [1, 2], description: '1 Opt-In, 2 Opt-Out' })
  @IsOptional()
  @IsIn([1, 2])
  PreferenceType?: number;

  @ApiPropertyOptional({ type: [PreferenceAttributeDto] })
  @IsOptional()
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => PreferenceAttributeDto)
  PreferenceAttributes?: PreferenceAttributeDto[];
}
