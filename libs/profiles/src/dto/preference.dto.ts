import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { ConsentAssociationDto } from './consent.dto';
import { NestedArray, OptionalText, ReadOnlyField } from '@app/shared';

export class PreferenceAttributeDto {
  @ApiPropertyOptional()
  @IsString()
  @MaxLength(100)
  Key: string;

  @OptionalText(4000)
  Value?: string;
}

export class PreferenceDto {
  @OptionalText(50)
  ProgramId?: string;

  @OptionalText(50, { description: 'Phone, Fax, Text, SMS, Email, Mail or Solicit' })
  ChannelId?: string;

  @OptionalText(50)
  FilterId?: string;

  @OptionalText(20)
  FrequencyId?: string;

  @NestedArray(() => ConsentAssociationDto)
  ConsentAssociations?: ConsentAssociationDto[];

  @OptionalText(20, { enum: ['Expressed', 'Implied'] })
  MatchType?: string;

  @OptionalText(256)
  ReasonCode?: string;

  @OptionalText(20, { enum: ['Active', 'Expired'] })
  PreferenceStatus?: string;

  @OptionalText(100)
  UserId?: string;

  @OptionalText(100)
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

  @NestedArray(() => PreferenceAttributeDto)
  PreferenceAttributes?: PreferenceAttributeDto[];
}
