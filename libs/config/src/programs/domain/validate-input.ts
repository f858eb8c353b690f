import { ApiError, describeValidationErrors } from '@app/shared';
import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validate } from 'class-validator';
import { PatchOperationDto } from '../../common/patch-operation.dto';

/**
 * Validates a plain value as the DTO class `type` with the global pipe's rules (unknown
 * fields refused, read-only fields accepted): what a PATCH result and a top-level array
 * body go through, since the global pipe cannot see them. `path` prefixes field names.
 */
export async function validateAs<T extends object>(
  type: ClassConstructor<T>,
  value: unknown,
  path = '',
): Promise<T> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw ApiError.badRequest(
      `Invalid ${path || 'body'} (value ${show(value)}): must be an object`,
    );
  }
  const instance = plainToInstance(type, value);
  const errors = await validate(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  });
  if (errors.length) throw ApiError.badRequest(describeValidationErrors(errors, path).join('; '));
  return instance;
}

/** Validates a body that must be a non-empty JSON array of `type` (each item named `[i]`). */
export async function validateArrayAs<T extends object>(
  type: ClassConstructor<T>,
  body: unknown,
  itemName: (index: number) => string,
): Promise<T[]> {
  if (!Array.isArray(body) || body.length === 0) {
    throw ApiError.badRequest(`Invalid body (value ${show(body)}): must be a non-empty JSON array`);
  }
  const items: T[] = [];
  const problems: string[] = [];
  for (const [index, item] of body.entries()) {
    try {
      items.push(await validateAs(type, item, itemName(index)));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problems.push(error.message);
    }
  }
  if (problems.length) throw ApiError.badRequest(problems.join('; '));
  return items;
}

/** The body of a PATCH: a non-empty array of operations, each named `Operations[i]`. */
export function validatePatchOperations(body: unknown): Promise<PatchOperationDto[]> {
  return validateArrayAs(PatchOperationDto, body, (index) => `Operations[${index}]`);
}

function show(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
