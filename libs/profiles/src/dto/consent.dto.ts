import { ApiPropertyOptional } from '@nestjs/swagger';
import { CONSENT_STATUS_DESCRIPTION, CONSENT_STATUS_VALUES } from '@app/config';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { EditedDto, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';

export class ConsentDto {
  @OptionalText(100, { description: 'Name of an active consent type' })
  ConsentType?: string;

  @OptionalText(50)
  ConsentVersion?: string;

  @OptionalText(15, { example: 'en-us' })
  Locale?: string;

  @ApiPropertyOptional({
    enum: CONSENT_STATUS_VALUES,
    description: CONSENT_STATUS_DESCRIPTION,
  })
  @IsOptional()
  @IsIn(CONSENT_STATUS_VALUES)
  ConsentStatus?: number;

  @OptionalText(256)
  ReasonCode?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  ConsentDate?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  ExpirationDate?: string;

  @OptionalText(100)
  SourceId?: string;

  @ReadOnlyField({ type: Boolean })
  Expired?: boolean;

  @ReadOnlyField({ type: EditedDto })
  Edited?: EditedDto;

  @ReadOnlyField({ type: Boolean })
  UpdatedVersionPending?: boolean;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;
}

export class ConsentAssociationDto {
  @OptionalText(100)
  ConsentType?: string;

  @OptionalText(50)
  ConsentVersion?: string;

  @OptionalBoolean({ default: true })
  IsActive?: boolean;

  @OptionalText(15)
  Locale?: string;

  @OptionalText(256)
  ReasonCode?: string;
}
