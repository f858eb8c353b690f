import type { Type as ClassType } from '@nestjs/common';
import { ApiError, describeValidationErrors } from '@app/shared';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

/**
 * Validates `plain` as `type` with the global pipe's rules (unknown fields refused,
 * read-only fields accepted) and returns the instance; a 400 naming each field otherwise.
 * For what the global pipe cannot see: a patched entry, a body whose class is per kind.
 */
export function validateInput<T extends object>(
  type: ClassType<T>,
  plain: unknown,
  what: string,
  parent = '',
): T {
  if (typeof plain !== 'object' || plain === null || Array.isArray(plain)) {
    throw ApiError.badRequest(`${what} must be a JSON object`);
  }
  const instance = plainToInstance(type, plain);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    // One message per field: a missing list is "must be an array", not also "too short".
    stopAtFirstError: true,
    validationError: { target: false, value: true },
  });
  if (errors.length) {
    throw ApiError.badRequest(describeValidationErrors(errors, parent).join('; '));
  }
  return instance;
}
