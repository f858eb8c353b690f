import { applyDecorators, Type as ClassType } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsArray,
  IsBoolean,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';

/*
 * The field shapes the profile DTOs repeat: each validates and documents at once, so the
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
export function NestedArray(type: () => ClassType<unknown>): PropertyDecorator {
  return applyDecorators(
    // Swagger resolves a lazy type only from a function named "type".
    ApiPropertyOptional({ type: () => type(), isArray: true } as ApiPropertyOptions),
    IsOptional(),
    IsArray(),
    ValidateNested({ each: true }),
    Type(type),
  );
}
