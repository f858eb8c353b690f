import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CONSENT_STATUS_DESCRIPTION, CONSENT_STATUS_VALUES } from '@app/config';
import { IsIn, IsIP, IsISO8601, IsOptional } from 'class-validator';
import { EditedDto, OptionalBoolean, OptionalText, ReadOnlyField, RequiredText } from '@app/shared';

/** A grant waiting for the person's confirmation from their mailbox (docs/double-opt-in.md). */
export class ConsentPendingConfirmationDto {
  @ApiProperty({ description: 'The confirmation (GET .../Profile/{id}/Confirmations)' })
  Id: string;

  @ApiProperty({ format: 'date-time', description: 'When the grant was accepted' })
  RequestedDate: string;
}

/**
 * The evidence of a confirmed grant (docs/double-opt-in.md): from the mailbox (double opt-in
 * here), or stated by a bulk import's record for a confirmation made elsewhere. Read-only
 * through the Data API (a value sent is checked for its shape and ignored); only a bulk
 * import's record may state one (docs/bulk.md).
 */
export class ConsentConfirmationDto {
  @RequiredText(50, {
    example: 'DoubleOptIn',
    description: 'The collection method (`DoubleOptIn` for a confirmation from the mailbox)',
  })
  Method: string;

  @ApiProperty({
    format: 'date-time',
    description: 'When the person confirmed (not in the future)',
  })
  @IsISO8601()
  ConfirmedDate: string;

  @OptionalText(100, {
    description: "The confirmation (link) id; from an import, the other system's, if any",
  })
  LinkId?: string;

  @ApiPropertyOptional({ description: 'The IP address of the confirming request' })
  @IsOptional()
  @IsIP()
  IpAddress?: string;

  @OptionalText(512, { description: 'The User-Agent of the confirming request' })
  UserAgent?: string;

  @OptionalText(512, {
    description: "Free text evidence of a confirmation made elsewhere (a bulk import's record)",
  })
  Evidence?: string;
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
    description:
      'Present when the grant was confirmed (from the mailbox, or elsewhere as a bulk import stated): the evidence. Read-only here; a bulk import record may state it',
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
