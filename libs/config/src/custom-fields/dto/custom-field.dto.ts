import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  EditedDto,
  NestedArray,
  OptionalBoolean,
  OptionalInt,
  OptionalText,
  ReadOnlyField,
  RequiredNestedArray,
  RequiredText,
} from '@app/shared';
import { IsIn, IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { LocalizedFieldDto } from '../../common/localized-field.dto';
import { INT32_MAX } from '../../common/entry-request';
import {
  CUSTOM_FIELD_VALUE_MAX_LENGTH,
  SELECT_LIST_DISPLAY_TYPES,
  type SelectListDisplayType,
} from '../domain/custom-field-value';
import { UPDATE_RULE_IDS } from '../domain/update-rules';

export const CHECKBOX_STATES = ['Unchecked', 'Checked', 'Indeterminate'] as const;
export type CheckboxState = (typeof CHECKBOX_STATES)[number];

/** An optional finite number. */
function OptionalNumber(options: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: Number, ...options } as ApiPropertyOptions),
    IsOptional(),
    IsNumber({ allowNaN: false, allowInfinity: false }),
  );
}

/**
 * Fields every custom field definition has, whatever its type. An optional field is null in
 * an answer when the definition lacks it (so a PATCH replace can reach it), and a request may
 * send null for absent.
 */
export class CustomFieldBaseDto {
  @ReadOnlyField({
    type: 'integer',
    minimum: 1,
    description: 'Set by the service; unique across the four types',
  })
  Id?: number;

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;

  @RequiredText(94, { description: 'Unique per client across all four types (case-insensitive)' })
  Name: string;

  @RequiredNestedArray(() => LocalizedFieldDto, {
    description: 'Display name per locale, as {Locale, Name, Description} (at least one)',
  })
  LocalizedDisplayNames: LocalizedFieldDto[];

  @OptionalText(256, { nullable: true })
  Description?: string;

  @ApiPropertyOptional({
    type: 'integer',
    enum: UPDATE_RULE_IDS,
    description:
      'Update rule (GET /{clientId}/CustomFields/UpdateRules): 1 Always (default), ' +
      '2 IfCurrentValueIsBlank, 4 IfNewValueIsNotBlank, 5 Never',
  })
  @IsOptional()
  @IsIn(UPDATE_RULE_IDS, { message: `must be one of ${UPDATE_RULE_IDS.join(', ')}` })
  UpdateRuleId?: number;

  @OptionalInt(0, { nullable: true, description: 'Order in a user interface' })
  DisplayOrder?: number;

  @OptionalBoolean({ description: 'Stored for user interfaces; the API does not enforce it' })
  IsReadOnly?: boolean;

  @OptionalBoolean({ description: 'Default false; a blank value is refused on a profile' })
  IsRequired?: boolean;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;
}

export class TextCustomFieldDto extends CustomFieldBaseDto {
  @OptionalInt(0, {
    nullable: true,
    maximum: CUSTOM_FIELD_VALUE_MAX_LENGTH,
    description: 'Minimum length of a value',
  })
  MinLength?: number;

  @OptionalInt(0, {
    nullable: true,
    maximum: CUSTOM_FIELD_VALUE_MAX_LENGTH,
    description: 'Maximum length of a value (4000 when absent)',
  })
  MaxLength?: number;

  @OptionalText(CUSTOM_FIELD_VALUE_MAX_LENGTH, {
    nullable: true,
    description: 'Must itself pass the field checks (length, regex)',
  })
  DefaultValue?: string;

  @OptionalText(1000, {
    nullable: true,
    description:
      'JavaScript (ECMAScript) regular expression without flags; it must compile. A value ' +
      'is valid when the expression matches somewhere in it (anchor with ^ and $ for the whole value).',
  })
  ValidationRegex?: string;

  @OptionalText(4000, {
    nullable: true,
    description: 'Input mask for user interfaces (not enforced)',
  })
  FieldMask?: string;
}

export class NumericCustomFieldDto extends CustomFieldBaseDto {
  @OptionalNumber({ nullable: true })
  MinValue?: number;

  @OptionalNumber({ nullable: true })
  MaxValue?: number;

  @OptionalInt(0, {
    nullable: true,
    maximum: 15,
    description: 'Most decimals a value may have (any when absent)',
  })
  DecimalPlaces?: number;

  @OptionalNumber({ nullable: true, description: 'Must itself pass the field checks' })
  DefaultValue?: number;

  @OptionalText(4000, {
    nullable: true,
    description: 'Display mask for user interfaces (not enforced)',
  })
  FieldMask?: string;
}

export class DateTimeCustomFieldDto extends CustomFieldBaseDto {
  @OptionalText(64, { nullable: true, description: 'ISO 8601 date or date-time (no offset: UTC)' })
  MinDate?: string;

  @OptionalText(64, { nullable: true, description: 'ISO 8601 date or date-time (no offset: UTC)' })
  MaxDate?: string;

  @OptionalText(64, { nullable: true, description: 'ISO 8601; must lie within MinDate..MaxDate' })
  DefaultValue?: string;
}

export class SelectListCustomFieldDto extends CustomFieldBaseDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: INT32_MAX,
    description: 'Id of a picklist of the client (GET /{clientId}/Picklists)',
  })
  @IsInt()
  @Min(1)
  @Max(INT32_MAX)
  PicklistId: number;

  @ApiProperty({
    enum: SELECT_LIST_DISPLAY_TYPES,
    description:
      'SingleSelect: a value is one picklist value; MultiSelect: a value holds several picklist values joined with "::"',
  })
  @IsIn(SELECT_LIST_DISPLAY_TYPES)
  DisplayType: SelectListDisplayType;

  @ApiPropertyOptional({
    type: String,
    enum: [...CHECKBOX_STATES, null],
    nullable: true,
    description:
      'Initial state of the options in a user interface (stored, not enforced): Unchecked, Checked or Indeterminate (neither)',
  })
  @IsOptional()
  @IsIn(CHECKBOX_STATES)
  DefaultState?: CheckboxState;
}

/** The four lists of custom field definitions: GET, the answer of POST and PATCH. */
export class CustomFieldListDto {
  @ApiProperty({ type: [DateTimeCustomFieldDto] })
  DateTimeFields: DateTimeCustomFieldDto[];

  @ApiProperty({ type: [NumericCustomFieldDto] })
  NumericFields: NumericCustomFieldDto[];

  @ApiProperty({ type: [SelectListCustomFieldDto] })
  SelectListFields: SelectListCustomFieldDto[];

  @ApiProperty({ type: [TextCustomFieldDto] })
  TextFields: TextCustomFieldDto[];
}

/** POST /{clientId}/CustomFields: definitions of any types at once. */
export class CreateCustomFieldsDto {
  @NestedArray(() => DateTimeCustomFieldDto)
  DateTimeFields?: DateTimeCustomFieldDto[];

  @NestedArray(() => NumericCustomFieldDto)
  NumericFields?: NumericCustomFieldDto[];

  @NestedArray(() => SelectListCustomFieldDto)
  SelectListFields?: SelectListCustomFieldDto[];

  @NestedArray(() => TextCustomFieldDto)
  TextFields?: TextCustomFieldDto[];
}

export class CreateTextFieldsDto {
  @RequiredNestedArray(() => TextCustomFieldDto, { minItems: 1 })
  TextFields: TextCustomFieldDto[];
}

export class CreateNumericFieldsDto {
  @RequiredNestedArray(() => NumericCustomFieldDto, { minItems: 1 })
  NumericFields: NumericCustomFieldDto[];
}

export class CreateDateTimeFieldsDto {
  @RequiredNestedArray(() => DateTimeCustomFieldDto, { minItems: 1 })
  DateTimeFields: DateTimeCustomFieldDto[];
}

export class CreateSelectListFieldsDto {
  @RequiredNestedArray(() => SelectListCustomFieldDto, { minItems: 1 })
  SelectListFields: SelectListCustomFieldDto[];
}

export class UpdateRuleDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  Id: number;

  @ApiProperty({ example: 'Always' })
  Name: string;

  @ApiProperty()
  Description: string;
}

export class UpdateRuleListDto {
  @ApiProperty({ type: [UpdateRuleDto] })
  UpdateRules: UpdateRuleDto[];
}
