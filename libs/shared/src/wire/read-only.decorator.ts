import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { Allow } from 'class-validator';

/**
 * A field the service sets itself. Clients may send it back (a GET body round-trips
 * into a PUT); it is accepted and ignored, never refused as unknown.
 */
export function ReadOnlyField(options: ApiPropertyOptions = {}): PropertyDecorator {
  return applyDecorators(
    Allow(),
    ApiPropertyOptional({ ...options, readOnly: true } as ApiPropertyOptions),
  );
}
