import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsISO8601, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  ConsentAssociationDto,
  ConsentConfirmationDto,
  ConsentPendingConfirmationDto,
} from './consent.dto';
import { NestedArray, OptionalText, ReadOnlyField } from '@app/shared';

export class PreferenceAttributeDto {
  @ApiProperty({ maxLength: 100 })
  @IsString()
  @MaxLength(100)
  Key: string;

  @OptionalText(4000, {
    nullable: true,
    description:
      "The attribute's value; in a merge, null clears it (an absent Value is left alone)",
  })
  Value?: string | null;
}

export class PreferenceDto {
  @OptionalText(50, { description: "The program's Id as a decimal string; required" })
  ProgramId?: string;

  @OptionalText(50, {
    description:
      "The filter's channel: Phone, Text/SMS (also Text, SMS), Email, Mail or Solicit, any letter case; stored in that spelling. EmailPreferences take Email, PhonePreferences Phone or Text/SMS, AddressPreferences Mail, ProfilePreferences Solicit",
  })
  ChannelId?: string;

  @OptionalText(50, { description: 'The ID of a filter of the program, as a string; required' })
  FilterId?: string;

  @OptionalText(20, { description: "One of the filter's frequency IDs (any locale)" })
  FrequencyId?: string;

  @NestedArray(() => ConsentAssociationDto)
  ConsentAssociations?: ConsentAssociationDto[];

  @OptionalText(20, {
    enum: ['Expressed', 'Implied'],
    description:
      'Expressed (default): stated by the person; Implied: inferred by a system rather than expressed by the person; returned only with implied=true',
  })
  MatchType?: string;

  @OptionalText(256)
  ReasonCode?: string;

  @OptionalText(20, {
    enum: ['Active', 'Expired'],
    description:
      'Computed: a written preference is Active, and Expired once past its ExpirationDate. A value sent is ignored, except Active on an expired preference, which renews it',
  })
  PreferenceStatus?: string;

  @OptionalText(100)
  UserId?: string;

  @OptionalText(100)
  SourceId?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description:
      "Computed when the preference is written: the write's time plus the filter's opt-in or opt-out expiration days (customer or non-customer); a date sent is kept when earlier",
  })
  @IsOptional()
  @IsISO8601()
  ExpirationDate?: string;

  @ReadOnlyField({ format: 'date-time' })
  LastModifiedDate?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsISO8601()
  CustomerDate?: string;

  @ApiPropertyOptional({
    enum: [1, 2],
    description: '1 Opt-In (the person wants it), 2 Opt-Out (the person does not)',
  })
  @IsOptional()
  @IsIn([1, 2])
  PreferenceType?: number;

  @NestedArray(() => PreferenceAttributeDto)
  PreferenceAttributes?: PreferenceAttributeDto[];

  @ReadOnlyField({
    type: () => ConsentPendingConfirmationDto,
    description:
      'Present while an opt-in on a filter requiring confirmation waits for the person (double opt-in, docs/double-opt-in.md): the preference keeps its PreferenceType until then (none when new)',
  })
  PendingConfirmation?: ConsentPendingConfirmationDto;

  @ReadOnlyField({
    type: () => ConsentConfirmationDto,
    description: 'Present when the opt-in was confirmed from the mailbox: the evidence',
  })
  Confirmation?: ConsentConfirmationDto;

  // Documentation only (no validation decorator): a request that sends it is refused as an
  // unknown field, as before; only the preference history and bulk export rows answer it.
  @ApiPropertyOptional({
    type: Boolean,
    readOnly: true,
    description:
      'Only in the preference history and in bulk export rows (false: archived or removed); refused in a request',
  })
  IsActive?: boolean;
}
