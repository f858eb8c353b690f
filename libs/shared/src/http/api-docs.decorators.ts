import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiNotFoundResponse, ApiParam } from '@nestjs/swagger';

/*
 * OpenAPI pieces that many routes repeat, one decorator each, so a route states only what
 * is its own and the wording of the shared answers lives in one place.
 */

export const MALFORMED_REQUEST = 'Malformed request; the Message names the field and value';

/** The 400 every validated route answers, and its 404 when `notFound` says what is missing. */
export function ApiStandardErrors(
  options: { notFound?: string } = {},
): MethodDecorator & ClassDecorator {
  const decorators = [ApiBadRequestResponse({ description: MALFORMED_REQUEST })];
  if (options.notFound) decorators.push(ApiNotFoundResponse({ description: options.notFound }));
  return applyDecorators(...decorators);
}

/** An int32 id in the path (`/{typeId}`), parsed by a param decorator the explorer cannot see. */
export function ApiIntParam(name: string, description?: string): MethodDecorator & ClassDecorator {
  return ApiParam({
    name,
    type: 'integer',
    format: 'int32',
    ...(description === undefined ? {} : { description }),
  });
}
