import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import {
  ANY_JSON_VALUE,
  EditedDto,
  NestedArray,
  OptionalBoolean,
  OptionalText,
  ReadOnlyField,
} from '@app/shared';
import { LOCALE_PATTERN, LocaleCode } from '../../common/localized-field.dto';
import { CHANNEL_INPUTS, PROGRAM_TYPE_INPUTS } from '../domain/program-vocabulary';
import { OneOfText, OptionalInt, RequiredList, RequiredText } from './program-fields';

const LOCALE_MESSAGE = '$property must be a locale code such as en or fr-ca';

/** A custom property: a key-value pair on a program group, program or filter. */
export class CustomPropertyDto {
  @RequiredText(100, {
    example: 'Jurisdiction',
    description: 'Unique (case-insensitive) within the entry',
  })
  Key: string;

  @OptionalText(4000, { example: 'EU' })
  Value?: string;
}

/** A text tag: a key-value pair of display text in one locale. */
export class DisplayTagDto {
  @RequiredText(100, { example: 'Title' })
  Key: string;

  @OptionalText(4000, { example: 'Monthly newsletter' })
  Value?: string;
}

/** The text tags of one locale. */
export class TextTagLocaleDto {
  @LocaleCode({ description: 'Locale code, unique within the entry' }, LOCALE_MESSAGE)
  ID: string;

  @NestedArray(() => DisplayTagDto)
  DisplayTags?: DisplayTagDto[];
}

export class FrequencyDto {
  @RequiredText(20, {
    example: 'Weekly',
    description: 'Frequency id, unique within its locale; what a preference names as FrequencyId',
  })
  ID: string;

  @OptionalText(256)
  DisplayName?: string;

  @OptionalText(1000)
  Description?: string;

  @OptionalBoolean({ description: 'At most one default per locale' })
  IsDefault?: boolean;

  @OptionalInt(0)
  DisplayOrder?: number;
}

/** The frequencies offered in one locale. */
export class FrequencyLocaleDto {
  @LocaleCode({ description: 'Locale code, unique within the filter' }, LOCALE_MESSAGE)
  ID: string;

  @NestedArray(() => FrequencyDto)
  Frequencies?: FrequencyDto[];
}

/** A preference attribute offered with the filter's preferences. */
export class PreferenceAttributeRefDto {
  @RequiredText(100, { example: 'Source', description: 'Attribute key, unique within the filter' })
  ID: string;

  @OptionalInt(0)
  DisplayOrder?: number;

  @OptionalBoolean()
  IsRequired?: boolean;
}

/** A consent a preference of the filter requires. */
export class RequiredPreferenceConsentDto {
  @RequiredText(100, {
    example: 'Marketing',
    description:
      'Name of an ACTIVE consent type (case-insensitive; stored as the consent type spells it), unique within the filter',
  })
  TypeName: string;

  @OptionalInt(0, { description: 'Orders the consents in a user interface' })
  DisplayOrder?: number;

  @ReadOnlyField({ ...ANY_JSON_VALUE, description: 'Accepted (older clients send it) and ignored' })
  ConsentTypeLink?: unknown;
}

/** A filter: the channel-specific container of a program's preferences. */
export class FilterDto {
  @ReadOnlyField({
    type: 'integer',
    minimum: 1,
    format: 'int32',
    description:
      'Filter id, unique per client. Profile preferences name it as the string FilterId ("7").',
  })
  ID?: number;

  @ReadOnlyField({ type: 'integer', minimum: 1, format: 'int32', description: 'Id of the program' })
  ProgramID?: number;

  @ReadOnlyField({ ...ANY_JSON_VALUE, description: 'Accepted (older clients send it) and ignored' })
  Link?: unknown;

  @RequiredText(100, { description: 'Unique (case-insensitive) within the program' })
  Name: string;

  @OptionalText(1000)
  Description?: string;

  @OneOfText(CHANNEL_INPUTS, {
    description:
      'Phone, Text/SMS ("Text" and "SMS" are accepted and stored as Text/SMS), Email, Mail or Solicit; any letter case',
  })
  ChannelID: string;

  @ApiPropertyOptional({ example: 'en-us', pattern: LOCALE_PATTERN.source })
  @IsOptional()
  @IsString()
  @Matches(LOCALE_PATTERN, { message: LOCALE_MESSAGE })
  DefaultLocaleID?: string;

  @OptionalInt(0, {
    description: 'Preference value (PreferenceType) applied by default: 1 Opt-In, 2 Opt-Out',
  })
  DefaultPreferenceValue?: number;

  @ReadOnlyField({ type: 'integer', description: 'Accepted (older clients send it) and ignored' })
  OptInPreferenceCount?: unknown;

  @ReadOnlyField({ type: 'integer', description: 'Accepted (older clients send it) and ignored' })
  OptOutPreferenceCount?: unknown;

  @OptionalInt(0, { description: 'Days until an opt-in of a customer expires' })
  OptInCustomerExpirationDays?: number;

  @OptionalInt(0, { description: 'Days until an opt-out of a customer expires' })
  OptOutCustomerExpirationDays?: number;

  @OptionalInt(0, { description: 'Days until an opt-in of a non-customer expires' })
  OptInNonCustomerExpirationDays?: number;

  @OptionalInt(0, { description: 'Days until an opt-out of a non-customer expires' })
  OptOutNonCustomerExpirationDays?: number;

  @NestedArray(() => CustomPropertyDto)
  CustomProperties?: CustomPropertyDto[];

  @NestedArray(() => TextTagLocaleDto)
  Locales?: TextTagLocaleDto[];

  @NestedArray(() => FrequencyLocaleDto)
  FrequencyLocales?: FrequencyLocaleDto[];

  @NestedArray(() => PreferenceAttributeRefDto)
  PreferenceAttributes?: PreferenceAttributeRefDto[];

  @NestedArray(() => RequiredPreferenceConsentDto)
  RequiredPreferenceConsents?: RequiredPreferenceConsentDto[];

  @OptionalBoolean({
    description:
      'Default false. True: an opt-in (PreferenceType 1) on this filter stays pending until the ' +
      'person confirms it from the mailbox of the email address holding it (double opt-in, ' +
      'docs/double-opt-in.md). Only on a filter with ChannelID Email',
  })
  RequiresConfirmation?: boolean;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;
}

export class ProgramDto {
  @ReadOnlyField({
    type: 'integer',
    minimum: 1,
    format: 'int32',
    description: 'Program id. Profile preferences name it as the string ProgramId ("3").',
  })
  Id?: number;

  @RequiredText(100, { description: 'Unique (case-insensitive) per client' })
  Name: string;

  @OptionalText(1000)
  Description?: string;

  @OneOfText(PROGRAM_TYPE_INPUTS, {
    description:
      'Transactional, Marketing, Informational, Consent or Do Not Contact (DNC) ("DNC" and "Do Not Contact" are accepted and stored as Do Not Contact (DNC)); any letter case',
  })
  ProgramType: string;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @OptionalBoolean({
    description:
      "Default false. True: an opt-in (PreferenceType 1) on any of the program's Email filters " +
      '(EmailPreferences) stays pending until the person confirms it from that mailbox (double ' +
      'opt-in, docs/double-opt-in.md); its other channels are not affected. Only on a program ' +
      'with a filter whose ChannelID is Email',
  })
  RequiresConfirmation?: boolean;

  @NestedArray(() => CustomPropertyDto)
  CustomProperties?: CustomPropertyDto[];

  @NestedArray(() => TextTagLocaleDto)
  Locales?: TextTagLocaleDto[];

  @NestedArray(() => FilterDto)
  Filters?: FilterDto[];

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;
}

export class ProgramListDto {
  @RequiredList(() => ProgramDto)
  Programs: ProgramDto[];
}

export class FilterListDto {
  @RequiredList(() => FilterDto)
  Filters: FilterDto[];
}

export class RequiredPreferenceConsentListDto {
  @ApiProperty({
    type: () => RequiredPreferenceConsentDto,
    isArray: true,
    description: 'The complete new list (an empty list clears it)',
  })
  @IsArray()
  @ValidateNested({ each: true })
  @Type(() => RequiredPreferenceConsentDto)
  RequiredPreferenceConsents: RequiredPreferenceConsentDto[];
}
