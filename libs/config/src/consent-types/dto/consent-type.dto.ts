import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  EditedDto,
  NestedArray,
  OptionalBoolean,
  OptionalInt,
  OptionalText,
  ReadOnlyField,
  RequiredNestedArray,
  RequiredText,
  textKey,
} from '@app/shared';
import { Transform } from 'class-transformer';
import { IsIn, IsOptional } from 'class-validator';
import { LocaleCode, LocalizedFieldDto } from '../../common/localized-field.dto';
import { CONSENT_CHANNELS, type ConsentChannel } from '../domain/consent-channel';

/** Other spellings of the text channel (the programs area stores it as "Text/SMS"). */
const CHANNEL_ALIASES: Record<string, ConsentChannel> = { text: 'SMS', 'text/sms': 'SMS' };

/** Accepts a channel in any case (and the aliases) and stores its canonical spelling. */
const canonicalChannel = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const key = textKey(value);
  return (
    CONSENT_CHANNELS.find((channel) => channel.toLowerCase() === key) ??
    CHANNEL_ALIASES[key] ??
    value
  );
};

/** The consent language of a version in one locale. */
export class ConsentVersionLocalizedFieldDto {
  @OptionalText(10000, {
    nullable: true,
    description: 'The consent text shown to the person in this locale',
  })
  ConsentLanguage?: string;

  @LocaleCode({ description: 'Locale code (fr, fr-ca)' })
  Locale: string;

  @RequiredText(256)
  Name: string;

  @OptionalText(1000, { nullable: true })
  Description?: string;
}

/** One version of a consent type: what a person consents to, per locale. */
export class ConsentVersionDto {
  @RequiredText(50, {
    example: '1.0',
    description: 'Unique within the consent type (case-insensitive); never changes once published',
  })
  ConsentVersion: string;

  @RequiredNestedArray(() => ConsentVersionLocalizedFieldDto, { description: 'At least one' })
  LocalizedFields: ConsentVersionLocalizedFieldDto[];

  @OptionalInt(0, {
    nullable: true,
    description: 'Days a consent given to this version lasts; absent or null: no expiry',
  })
  ExpirationInDays?: number;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @OptionalBoolean({ description: 'Default false; stored as given' })
  IsAssociatedWithProfiles?: boolean;

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;

  @ReadOnlyField({
    type: String,
    format: 'date-time',
    description: 'When the version was published (added to the type)',
  })
  PublishedDate?: string;
}

/** A key-value attribute of a consent type (field names of our design, as elsewhere). */
export class ConsentAttributeDto {
  @RequiredText(100, { description: 'Unique within the type (case-insensitive)' })
  Key: string;

  @OptionalText(1000, { nullable: true })
  Value?: string;
}

export class ConsentTypeDto {
  @ReadOnlyField({ type: 'integer', minimum: 1, description: 'Set by the service' })
  TypeId?: number;

  @RequiredText(100, {
    description: 'Unique per client (case-insensitive); the ConsentType of profile consents',
  })
  TypeName: string;

  @NestedArray(() => LocalizedFieldDto)
  LocalizedFields?: LocalizedFieldDto[];

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @OptionalBoolean({ description: 'Default false' })
  IsDefault?: boolean;

  @ApiPropertyOptional({
    type: String,
    enum: [...CONSENT_CHANNELS, null],
    nullable: true,
    description:
      'The contact element channel the type is bound to: Email (email addresses), Phone (phone numbers), ' +
      'SMS (text messages to phone numbers; "Text" and "Text/SMS" are stored as SMS) or Mail (mailing addresses), any case; null or absent: ' +
      'a profile-only consent type. Locked while a filter requires the type.',
  })
  @IsOptional()
  @Transform(canonicalChannel)
  @IsIn(CONSENT_CHANNELS)
  ChannelId?: ConsentChannel | null;

  @OptionalBoolean({
    description:
      'Default false. True: a grant of this consent on an email address (a consent held by an ' +
      'element of Emails) stays pending until the person confirms it from that mailbox (double ' +
      'opt-in, docs/double-opt-in.md); consents held elsewhere are not affected',
  })
  RequiresConfirmation?: boolean;

  @NestedArray(() => ConsentAttributeDto)
  Attributes?: ConsentAttributeDto[];

  @NestedArray(() => ConsentVersionDto)
  Versions?: ConsentVersionDto[];

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;
}

export class ConsentTypeListDto {
  @RequiredNestedArray(() => ConsentTypeDto)
  ConsentTypes: ConsentTypeDto[];
}

/** One stored revision of a consent type (GET .../ConsentTypes/{typeId}/History). */
export class ConsentTypeRevisionDto {
  @ApiProperty({ description: 'The revision number, from 1 (the create), +1 per change' })
  Revision: number;
  @ApiProperty() TypeName: string;
  @ApiProperty({
    type: [String],
    description: 'Names the type had before this revision (they stay the type’s)',
  })
  FormerNames: string[];
  @ApiProperty() IsActive: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'null: a profile-only consent type' })
  ChannelId: string | null;
  @ApiProperty({ type: [String], description: 'ConsentVersion of each version, in order' })
  Versions: string[];
  @ApiProperty({ type: EditedDto, description: 'Who made this revision, and when' })
  Edited: EditedDto;
}

export class ConsentTypeHistoryDto {
  @ApiProperty({ type: [ConsentTypeRevisionDto], description: 'Newest first' })
  ConsentTypeHistory: ConsentTypeRevisionDto[];
}
