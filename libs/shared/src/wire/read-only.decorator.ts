import { applyDecorators, type Type as ClassType } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsRFC3339,
  IsString,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

const INT32_MAX = 2147483647;

/**
 * A field the service sets itself. Clients may send it back (a GET body round-trips into a
 * PUT): it is ignored, never refused as unknown. What is sent must still have the shape the
 * document gives the field (a 400 naming it otherwise): the answer a client read always has
 * it, and a value of another shape is a client error the document calls invalid.
 */
export function ReadOnlyField(options: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    Allow(),
    ApiPropertyOptional({ ...options, readOnly: true } as ApiPropertyOptions),
    ...shapeChecks(options),
  );
}

/** The class-validator checks of the documented shape (none for a field of any value). */
function shapeChecks(options: ApiPropertyOptions): PropertyDecorator[] {
  const { type, format, minimum, maximum } = options as {
    type?: unknown;
    format?: string;
    minimum?: number;
    maximum?: number;
  };
  const enumValues = (options as { enum?: unknown }).enum;
  // Checked when sent, null included (no answer sends null for these fields).
  const whenSent = ValidateIf((_: object, value: unknown) => value !== undefined);
  if ('anyOf' in options || 'oneOf' in options) return [];
  if (Array.isArray(enumValues)) return [whenSent, IsIn(enumValues)];
  if (type === 'integer') {
    return [
      whenSent,
      IsInt(),
      ...(minimum !== undefined ? [Min(minimum)] : []),
      ...(maximum !== undefined || format === 'int32' ? [Max(maximum ?? INT32_MAX)] : []),
    ];
  }
  if (type === Boolean || type === 'boolean') return [whenSent, IsBoolean()];
  if (format === 'date-time') return [whenSent, IsRFC3339()];
  if (type === String || type === 'string') return [whenSent, IsString()];
  const dto = dtoClass(type);
  if (dto) return [whenSent, IsObject(), ValidateNested(), Type(() => dto)];
  return [];
}

/** The DTO class of `type` (given as the class or as a thunk returning it). */
function dtoClass(type: unknown): ClassType<unknown> | undefined {
  if (typeof type !== 'function' || type === String || type === Boolean || type === Number) {
    return undefined;
  }
  // A class has a prototype of its own; an arrow thunk has none.
  return (type.prototype ? type : (type as () => ClassType<unknown>)()) as ClassType<unknown>;
}
