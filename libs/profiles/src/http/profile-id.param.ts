import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from '@app/shared';

const INT32_MAX = 2147483647;

/** A positive int32; anything else is a 400 that shows the value as sent. */
export function parseProfileId(value: string | undefined): number {
  const id = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || id < 1 || id > INT32_MAX) {
    throw ApiError.badRequest(
      `Invalid profileId (value ${JSON.stringify(value ?? null)}): must be an integer from 1 to ${INT32_MAX}`,
    );
  }
  return id;
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
    type: 'integer',
    format: 'int32',
    description: 'Profile id (1 to 2147483647)',
  });
