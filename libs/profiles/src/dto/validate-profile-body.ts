import { cacheValidationMetadata, describeValidationErrors } from '@app/shared';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ProfileDto } from './profile.dto';

/**
 * Validates a profile body outside a request (the result of a PATCH, at the worker)
 * exactly as the global pipe validates a request body: the ProfileDto rules, unknown
 * fields refused. Returns the messages (empty when the body is valid).
 */
export function validateProfileBody(body: Record<string, unknown>): string[] {
  cacheValidationMetadata();
  const instance = plainToInstance(ProfileDto, body);
  const errors = validateSync(instance, {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  });
  return describeValidationErrors(errors);
}
