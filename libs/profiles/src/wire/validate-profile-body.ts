import { compiledValidation, describeValidationErrors } from '@app/shared';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ProfileDto } from './profile.dto';

/**
 * Validates a profile body outside a request (the result of a PATCH, at the worker)
 * exactly as the global pipe validates a request body: the ProfileDto rules, unknown
 * fields refused. Returns the messages (empty when the body is valid).
 */
export function validateProfileBody(body: object): string[] {
  const instance = plainToInstance(ProfileDto, body);
  const options = {
    whitelist: true,
    forbidNonWhitelisted: true,
    validationError: { target: false, value: true },
  };
  // The compiled pre-check of the same rules; class-validator words what it refuses.
  if (compiledValidation().accepts(instance, options)) return [];
  return describeValidationErrors(validateSync(instance, options));
}
