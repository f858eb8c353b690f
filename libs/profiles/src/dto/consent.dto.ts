import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONSENT_STATUS_DESCRIPTION, CONSENT_STATUS_VALUES } from '@app/config';
import { IsIn, IsISO8601, IsOptional } from 'class-validator';
import { EditedDto, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';

/** A grant waiting for the person's confirmation from their mailbox (docs/double-opt-in.md). */
export class ConsentPendingConfirmationDto {
  @ApiProperty({ description: 'The confirmation (GET .../Profile/{id}/Confirmations)' })
  Id: string;

  @ApiProperty({ format: 'date-time', description: 'When the grant was accepted' })
  RequestedDate: string;
}

/** The evidence of a grant confirmed from the mailbox (docs/double-opt-in.md). */
export class ConsentConfirmationDto {
  @ApiProperty({ enum: ['DoubleOptIn'], description: 'The collection method' })
  Method: string;

  @ApiProperty({ format: 'date-time' })
  ConfirmedDate: string;

  @ApiProperty({ description: 'The confirmation (link) id' })
  LinkId: string;

  @ApiPropertyOptional({ description: 'The IP address of the confirming request' })
  IpAddress?: string;

  @ApiPropertyOptional({ description: 'The User-Agent of the confirming request' })
  UserAgent?: string;
}

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

  @ReadOnlyField({
    type: () => ConsentPendingConfirmationDto,
    description:
      'Present while a grant of a consent type requiring confirmation waits for the person (the consent keeps its status until then)',
  })
  PendingConfirmation?: ConsentPendingConfirmationDto;

  @ReadOnlyField({
    type: () => ConsentConfirmationDto,
    description: 'Present when the grant was confirmed from the mailbox: the evidence',
  })
  Confirmation?: ConsentConfirmationDto;

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
