import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EditedDto, OptionalBoolean, OptionalText, ReadOnlyField } from '@app/shared';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  NotContains,
  ValidateNested,
} from 'class-validator';
import { LocalizedFieldDto } from '../../common/localized-field.dto';
import { INT32_MAX } from '../../common/entry-request';

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

  @ApiProperty({
    type: [LocalizedFieldDto],
    description: 'Display name of the option per locale (at least one); selected by `locale`',
  })
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => LocalizedFieldDto)
  LocalizedNames: LocalizedFieldDto[];

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'Order in a user interface' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(INT32_MAX)
  DisplayOrder?: number;

  @OptionalBoolean({ description: 'Default true; an inactive option is refused as a new value' })
  IsActive?: boolean;
}

/** A picklist: name-value pairs a SelectList custom field offers. */
export class PicklistDto {
  @ReadOnlyField({ type: 'integer', description: 'Set by the service' })
  Id?: number;

  @ReadOnlyField({ type: () => EditedDto })
  Edited?: EditedDto;

  @ApiProperty({
    minLength: 1,
    maxLength: 100,
    description: 'Unique per client (case-insensitive)',
  })
  @IsString()
  @Matches(/\S/, { message: 'must not be blank' })
  @MaxLength(100)
  Name: string;

  @OptionalText(256)
  Description?: string;

  @OptionalBoolean({ description: 'Default true' })
  IsActive?: boolean;

  @ApiProperty({ type: [PicklistOptionDto], description: 'The options (at least one)' })
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => PicklistOptionDto)
  FieldSelectOptions: PicklistOptionDto[];
}

export class PicklistListDto {
  @ApiProperty({ type: [PicklistDto] })
  @IsArray()
  @ArrayMinSize(1)
  @ValidateNested({ each: true })
  @Type(() => PicklistDto)
  Picklists: PicklistDto[];
}
