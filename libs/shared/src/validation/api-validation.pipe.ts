import { ValidationPipe } from '@nestjs/common';
import { InvalidInputError } from '../errors/domain-errors';
import { describeValidationErrors } from './validation-errors';

/**
 * The global pipe: DTO classes validate (and document) every request. Unknown fields are
 * refused with a message naming them; fields marked read-only are accepted and ignored.
 */
export function createApiValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) =>
      new InvalidInputError(describeValidationErrors(errors).join('; ')),
  });
}
