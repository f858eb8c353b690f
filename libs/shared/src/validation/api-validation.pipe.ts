import { type ArgumentMetadata, type PipeTransform, ValidationPipe } from '@nestjs/common';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import { InvalidInputError } from '../errors/domain-errors';
import { describeValidationErrors } from './validation-errors';
import { compiledValidation } from './compiled-validation';
import { cacheValidationMetadata } from './validation-metadata-cache';

/**
 * The global pipe: DTO classes validate (and document) every request. Unknown fields are
 * refused with a message naming them; fields marked read-only are accepted and ignored.
 */
export function createApiValidationPipe(): PipeTransform {
  cacheValidationMetadata();
  return new ApiValidationPipe(
    new DtoValidationPipe({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) =>
        new InvalidInputError(describeValidationErrors(errors).join('; ')),
    }),
  );
}

/**
 * Nest runs every parameter of every route through the global pipe. A custom decorator's
 * value (`@CurrentCaller()`, `@ProfileIdParam()`: they parse and check what they take)
 * passes as it is, as ValidationPipe passes it (validateCustomDecorators is off), but
 * without the two promises of ValidationPipe's async transform.
 */
class ApiValidationPipe implements PipeTransform {
  constructor(private readonly dtos: DtoValidationPipe) {}

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    if (metadata.type === 'custom') return value;
    return this.dtos.transform(value, metadata);
  }
}

/**
 * A body a DTO class validates is required: no body, or JSON null, is refused like any invalid
 * one (ValidationPipe lets both through: a POST without a body had created a profile).
 */
class DtoValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (
      metadata.type === 'body' &&
      (value === undefined || value === null) &&
      metadata.metatype !== undefined &&
      this.toValidate(metadata)
    ) {
      throw new InvalidInputError(
        `Invalid body (value ${value === null ? 'null' : 'missing'}): a JSON object is required`,
      );
    }
    return super.transform(value, metadata);
  }

  /**
   * class-validator, after the compiled pre-check of the same rules (CompiledValidation):
   * an object the pre-check accepts has no error to report; any other is validated (and
   * its messages worded) by class-validator.
   */
  protected override validate(
    object: object,
    options?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    if (compiledValidation().accepts(object, options)) return [];
    return super.validate(object, options);
  }
}
