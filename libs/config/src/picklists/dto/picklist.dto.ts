import { ApiProperty } from '@nestjs/swagger';
import {
  EditedDto,
  OptionalBoolean,
  OptionalInt,
  OptionalText,
  ReadOnlyField,
  RequiredNestedArray,
  RequiredText,
} from '@app/shared';
import { IsNotEmpty, IsString, MaxLength, NotContains } from 'class-validator';
import { LocalizedFieldDto } from '../../common/localized-field.dto';

export const MULTI_VALUE_DELIMITER = '::';

/** One option of a picklist (field names of our own design: the public pages do not show them). */
export class PicklistOptionDto {
  @ApiProperty({
    minLength: 1,
    maxLength: 256,
    example: 'GOLD',
    description:
      'The value stored in a SelectList custom field of a profile. Unique within the picklist ' +
      '(case-insensitive); must not contain "::", the delimiter of multi-select values.',
  })
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  @NotContains(MULTI_VALUE_DELIMITER, { message: 'must not contain "::"' })
  Value: string;

  @RequiredNestedArray(() => LocalizedFieldDto, {
    description: 'Display name of the option per locale (at least one); selected by `locale`',
  })
  LocalizedNames: LocalizedFieldDto[];

  @OptionalInt(0, { nullable: true, description: 'Order in a user interface; null when absent' })
  DisplayOrder?: number;

  @OptionalBoolean({ description: 'Default true; an inactive option is refused as a new value' })
  IsActive?: boolean;
}

/** A picklist: name-value pairs a SelectList custom field offers. */
export class PicklistDto {
  @ReadOnlyField({ type: 'integer', minimum: 1, description: 'Set by the service' })
  Id?: number;

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;

  @RequiredText(100, { description: 'Unique per client (case-insensitive)' })
  Name: string;

  @OptionalText(256, { nullable: true, description: 'null when absent' })
  Description?: string;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @RequiredNestedArray(() => PicklistOptionDto, { description: 'The options (at least one)' })
  FieldSelectOptions: PicklistOptionDto[];
}

export class PicklistListDto {
  @RequiredNestedArray(() => PicklistDto)
  Picklists: PicklistDto[];
}
