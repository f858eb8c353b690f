import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { INT32_MAX, parseIntValue } from '@app/shared';

/** A positive int32; anything else is a 400 that shows the value as sent. */
export function parseProfileId(value: string | undefined): number {
  return parseIntValue('profileId', value);
}

/**
 * The `{profileId}` path segment, parsed from the raw string (the global pipe would
 * turn "abc" into NaN before a pipe could quote it).
 */
export const ProfileIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): number => {
  const request = ctx.switchToHttp().getRequest<{ params: Record<string, string | undefined> }>();
  return parseProfileId(request.params.profileId);
});

export const ApiProfileIdParam = (): MethodDecorator =>
  ApiParam({
    name: 'profileId',
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: INT32_MAX, example: 1 },
    description: `Profile id (1 to ${INT32_MAX}): the ProfileId a create answered`,
  });
