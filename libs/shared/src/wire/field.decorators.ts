import { applyDecorators, Type as ClassType } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { INT32_MAX } from '../validation/query-values';

/*
 * The field shapes the DTOs repeat: each validates and documents at once, so the
 * OpenAPI document and the checks cannot drift apart.
 */

/** An optional string of at most `maxLength` characters. */
export function OptionalText(
  maxLength: number,
  options: ApiPropertyOptions = {},
): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: String, maxLength, ...options } as ApiPropertyOptions),
    IsOptional(),
    IsString(),
    MaxLength(maxLength),
  );
}

/** An optional boolean. */
export function OptionalBoolean(options: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: Boolean, ...options } as ApiPropertyOptions),
    IsOptional(),
    IsBoolean(),
  );
}

/** An optional array of nested elements, each validated as `type()`. */
export function NestedArray(
  type: () => ClassType<unknown>,
  options: ApiPropertyOptions = {},
): PropertyDecorator {
  return applyDecorators(
    // Swagger resolves a lazy type only from a function named "type".
    ApiPropertyOptional({ type: () => type(), isArray: true, ...options } as ApiPropertyOptions),
    IsOptional(),
    IsArray(),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/**
 * The OpenAPI extension of a DTO property stating keywords only requests honour (the
 * document gives request bodies their own schema with them: `<Name>Request`). For a list
 * the server refuses empty in a request and may answer empty (a GET with no entries, an
 * entry without the asked locale): `{ [REQUEST_ONLY]: { minItems: 1 } }`.
 */
export const REQUEST_ONLY = 'x-request-only';

/** ApiProperty options stating request-only keywords ({@link REQUEST_ONLY}). */
export function requestOnly(keywords: {
  minItems?: number;
  maxItems?: number;
}): ApiPropertyOptions {
  return { [REQUEST_ONLY]: keywords } as unknown as ApiPropertyOptions;
}

/**
 * The documentation of a required array of `type()` elements: `minItems: 1` in its request
 * schema only ({@link REQUEST_ONLY}), as the answers that share the DTO may hold it empty.
 */
export function RequiredListProperty(
  type: () => ClassType<unknown>,
  options: ApiPropertyOptions = {},
): PropertyDecorator {
  return ApiProperty({
    // Swagger resolves a lazy type only from a function named "type".
    type: () => type(),
    isArray: true,
    ...requestOnly({ minItems: 1 }),
    ...options,
  } as ApiPropertyOptions);
}

/**
 * A required, non-empty array of nested elements, each validated as `type()`. Its request
 * schema says `minItems: 1` ({@link REQUEST_ONLY}); the answers that share the DTO may be
 * empty (a GET, a locale selection).
 */
export function RequiredNestedArray(
  type: () => ClassType<unknown>,
  options: ApiPropertyOptions = {},
): PropertyDecorator {
  return applyDecorators(
    RequiredListProperty(type, options),
    IsArray(),
    ArrayMinSize(1),
    ValidateNested({ each: true }),
    Type(type),
  );
}

/**
 * A required string with at least one non-space character, at most `maxLength` long.
 * `blank` is the message for an empty or all-space value.
 */
export function RequiredText(
  maxLength: number,
  options: ApiPropertyOptions = {},
  blank = 'must not be blank',
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: String,
      minLength: 1,
      maxLength,
      pattern: '\\S',
      ...options,
    } as ApiPropertyOptions),
    IsString(),
    Matches(/\S/, { message: blank }),
    MaxLength(maxLength),
  );
}

/** An optional integer from `min` to `max` (int32 max unless given). */
export function OptionalInt(
  min: number,
  options: ApiPropertyOptions & { maximum?: number } = {},
): PropertyDecorator {
  const max = options.maximum ?? INT32_MAX;
  return applyDecorators(
    ApiPropertyOptional({
      type: 'integer',
      minimum: min,
      ...options,
      maximum: max,
    } as ApiPropertyOptions),
    IsOptional(),
    IsInt(),
    Min(min),
    Max(max),
  );
}
