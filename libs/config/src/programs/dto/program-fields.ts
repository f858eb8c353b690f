import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import {
  OptionalInt as SharedOptionalInt,
  RequiredListProperty,
  RequiredText as SharedRequiredText,
} from '@app/shared';
import {
  ArrayNotEmpty,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import type { Type as ClassType } from '@nestjs/common';
import { INT32_MAX } from '../../common/entry-request';

/** A required, non-blank string of at most `maxLength` characters (this area's message). */
export function RequiredText(maxLength: number, options: ApiPropertyOptions = {}) {
  return SharedRequiredText(maxLength, options, '$property must not be empty');
}

/** An optional int32 from `min`. */
export function OptionalInt(min: number, options: ApiPropertyOptions = {}) {
  return SharedOptionalInt(min, { format: 'int32', ...options });
}

/** An optional list of int32 ids (1 and up). */
export function OptionalIdList(options: ApiPropertyOptions = {}) {
  return applyDecorators(
    ApiPropertyOptional({
      type: 'array',
      items: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX },
      ...options,
    } as ApiPropertyOptions),
    IsOptional(),
    IsArray(),
    IsInt({ each: true }),
    Min(1, { each: true }),
    Max(INT32_MAX, { each: true }),
  );
}

/** The required, non-empty list of a wrapper body (`{ "Programs": [...] }`). */
export function RequiredList(type: () => ClassType<unknown>, options: ApiPropertyOptions = {}) {
  return applyDecorators(
    // minItems in requests only: GET answers the same wrapper, with an empty list when there
    // is nothing.
    RequiredListProperty(type, options),
    IsArray(),
    ArrayNotEmpty(),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/** A value matched case-insensitively against `allowed` (aliases included). */
export function OneOfText(allowed: readonly string[], options: ApiPropertyOptions = {}) {
  const escaped = allowed.map((value) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  const pattern = new RegExp(`^\\s*(${escaped.join('|')})\\s*$`, 'i');
  return applyDecorators(
    ApiProperty({ type: String, enum: [...allowed], ...options } as ApiPropertyOptions),
    IsString(),
    Matches(pattern, { message: `$property must be one of ${allowed.join(', ')}` }),
  );
}
