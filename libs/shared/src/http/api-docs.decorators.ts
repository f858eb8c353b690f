import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiNotFoundResponse,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  type ApiPropertyOptions,
  ApiQuery,
  type ApiQueryOptions,
  ApiSchema,
  getSchemaPath,
} from '@nestjs/swagger';
import type { LinkObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { MAX_PATCH_OPERATIONS } from '../json-patch/patch-body';
import { INT32_MAX } from '../validation/query-values';

/*
 * OpenAPI pieces that many routes repeat, one decorator each, so a route states only what
 * is its own and the wording of the shared answers lives in one place.
 */

export const MALFORMED_REQUEST = 'Malformed request; the Message names the field and value';

/** The body of every error answer (4xx and 5xx): ApiExceptionFilter and the HTTP hooks send it. */
@ApiSchema({
  name: 'ErrorDto',
  description:
    'The body of every error answer. The token endpoint adds OAuth\'s "error" and "error_description"; an unknown client under CUSTOMAUTH3 answers 404 with no body at all (as the original service does).',
})
export class ErrorDto {
  @ApiProperty({
    description: 'What was refused and why; names the field and the value sent where there is one',
    example: 'Invalid Emails[0].EmailAddress (value "x"): must be an email address',
  })
  Message: string;
}

/** The 400 every validated route answers, and its 404 when `notFound` says what is missing. */
export function ApiStandardErrors(
  options: { notFound?: string } = {},
): MethodDecorator & ClassDecorator {
  const decorators = [ApiBadRequestResponse({ description: MALFORMED_REQUEST })];
  if (options.notFound) decorators.push(ApiNotFoundResponse({ description: options.notFound }));
  return applyDecorators(...decorators);
}

/**
 * A positive int32 id in the path (`/{typeId}`), parsed by a param decorator the explorer
 * cannot see (parseIntValue: 1 to 2147483647, else 400).
 */
export function ApiIntParam(name: string, description?: string): MethodDecorator & ClassDecorator {
  return ApiParam({
    name,
    // Ids are given from 1 per client: 1 is the first of its kind.
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX, example: 1 },
    description: description ?? `${name} (1 to ${INT32_MAX})`,
  });
}

/**
 * A text query parameter. The routes read a blank value as absent, so a required one must
 * hold a non-space character (`pattern`, unless given).
 */
export function ApiTextQuery(
  name: string,
  options: Omit<ApiQueryOptions, 'name' | 'type' | 'schema' | 'required'> & {
    required?: boolean;
    pattern?: string;
    maxLength?: number;
  } = {},
): MethodDecorator & ClassDecorator {
  const { pattern, maxLength, required = false, ...rest } = options;
  const schema: Record<string, unknown> = { type: 'string' };
  if (required || pattern) schema.pattern = pattern ?? '\\S';
  if (maxLength !== undefined) schema.maxLength = maxLength;
  return ApiQuery({ name, required, ...rest, schema } as ApiQueryOptions);
}

/**
 * ApiProperty options of a field that takes any JSON value (object, array, string, number,
 * boolean or null): the `value` of a JSON Patch operation, a field accepted and ignored.
 * `type: Array` with `anyOf` makes the explorer emit the combinator alone, without a `type`.
 */
export const ANY_JSON_VALUE = {
  type: Array,
  anyOf: [
    { type: 'object', nullable: true },
    { type: 'array', items: {} },
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
  ],
} as unknown as ApiPropertyOptions;

/** An optional field that takes any JSON value (ANY_JSON_VALUE). */
export function AnyJsonValue(options: ApiPropertyOptions = {}): PropertyDecorator {
  return ApiPropertyOptional({ ...options, ...ANY_JSON_VALUE } as ApiPropertyOptions);
}

/**
 * ApiProperty options of a field holding a `model` object or null. In OpenAPI 3.0 `nullable`
 * does not reach into a `$ref` (nor an `allOf` of one), so: `anyOf` the model and null. The
 * model must be in the document (ApiExtraModels on the controller).
 */
export function nullableModel(model: Type<unknown>): ApiPropertyOptions {
  return {
    type: Array,
    anyOf: [{ $ref: getSchemaPath(model) }, { type: 'object', nullable: true, enum: [null] }],
  } as unknown as ApiPropertyOptions;
}

/** The body of a PATCH: a JSON array of 1 to MAX_PATCH_OPERATIONS `operation`s (PatchOperationsPipe). */
export function patchBodySchema(operation: Type<unknown>): Record<string, unknown> {
  return {
    type: 'array',
    minItems: 1,
    maxItems: MAX_PATCH_OPERATIONS,
    items: { $ref: getSchemaPath(operation) },
  };
}

/** A link's parameter: the `{clientId}` of the request the answer belongs to. */
export const LINKED_CLIENT_ID = '$request.path.clientId';

/**
 * An OpenAPI link from an answer to the operation `operationId`, its parameters taken from
 * the request and the answer (runtime expressions such as `$response.body#/ProfileId`), so
 * generated clients and stateful testers can chain a create to what reads or changes it.
 */
export function linkTo(
  operationId: string,
  parameters: Record<string, string>,
  description?: string,
): LinkObject {
  return {
    operationId,
    parameters: { clientId: LINKED_CLIENT_ID, ...parameters },
    ...(description ? { description } : {}),
  };
}
