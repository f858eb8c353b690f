import { ApiPropertyOptional } from '@nestjs/swagger';
import { CONSENT_STATUS_VALUES } from '@app/consents';
import { IsBoolean, IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import { EditedDto } from './edited.dto';
import { ReadOnlyField } from './read-only.decorator';

export class ConsentDto {
  @ApiPropertyOptional({ description: 'Name of an active consent type', maxLength: 100 })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  ConsentType?: string;

  @ApiPropertyOptional({ maxLength: 50 })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  ConsentVersion?: string;

  @ApiPropertyOptional({ example: 'en-us', maxLength: 15 })
  @IsOptional()
  @IsString()
  @MaxLength(15)
  Locale?: string;

  @ApiPropertyOptional({
    enum: CONSENT_STATUS_VALUES,
    description: '1 Granted, 2 Denied, 3 Revoked, 4 NotSet',
  })
  @IsOptional()
  @IsIn(CONSENT_STATUS_VALUES)
  ConsentStatus?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  ReasonCode?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  ConsentDate?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  ExpirationDate?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  SourceId?: string;

  @ReadOnlyField({ type: Boolean })
  Expired?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;

  @ReadOnlyField({ type: Boolean })
  UpdatedVersionPending?: boolean;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;
}

export class ConsentAssociationDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(100)
  ConsentType?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(50)
  ConsentVersion?: string;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  IsActive?: boolean;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(15)
  Locale?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @MaxLength(256)
  ReasonCode?: string;
}
