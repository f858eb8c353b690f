import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsInt, Max, Min, ValidateNested } from 'class-validator';
import { ANY_JSON_VALUE, OptionalBoolean, ReadOnlyField } from '@app/shared';
import { CustomPropertyDto } from './program.dto';

export class CustomPropertyChangeDto extends CustomPropertyDto {
  @ReadOnlyField({ ...ANY_JSON_VALUE, description: 'Accepted (older clients send it) and ignored' })
  Link?: unknown;

  // null as absent (the validation takes it as absent).
  @OptionalBoolean({
    nullable: true,
    description:
      'When the entry already has the key (case-insensitive): true replaces its value, false (default) keeps it',
  })
  OverwriteExisting?: boolean;
}

/** Custom properties to set on one entry (program, filter or program group) by id. */
export class CustomPropertiesChangeDto {
  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 1,
    maximum: 2147483647,
    description: 'Id of the entry',
  })
  @IsInt()
  @Min(1)
  @Max(2147483647)
  ID: number;

  @ApiProperty({ type: () => CustomPropertyChangeDto, isArray: true, minItems: 1 })
  @IsArray()
  @ArrayNotEmpty()
  @ValidateNested({ each: true })
  @Type(() => CustomPropertyChangeDto)
  CustomProperties: CustomPropertyChangeDto[];
}
