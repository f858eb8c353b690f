import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { ApiError } from '@app/shared';

const INT32_MAX = 2147483647;

/** A positive int32 path id; anything else is a 400 quoting the value. */
export function parsePathId(name: string, value: string | undefined): number {
  const id = Number(value);
  if (value === undefined || !/^\d+$/.test(value) || id < 1 || id > INT32_MAX) {
    throw ApiError.badRequest(
      `Invalid ${name} (value ${JSON.stringify(value ?? null)}): must be an integer from 1 to ${INT32_MAX}`,
    );
  }
  return id;
}

/** The optional `Id` query parameter: 0 or absent means all. */
export function parseIdQuery(value: unknown): number {
  if (value === undefined || value === '') return 0;
  const text = String(value);
  const id = Number(text);
  if (typeof value !== 'string' || !/^\d+$/.test(text) || id > INT32_MAX) {
    throw ApiError.badRequest(
      `Invalid Id (value ${JSON.stringify(value)}): must be an integer from 0 to ${INT32_MAX}`,
    );
  }
  return id;
}

/** A positive int32 path parameter, parsed from the raw string. */
export const IdParam = createParamDecorator((name: string, ctx: ExecutionContext): number => {
  const request = ctx.switchToHttp().getRequest<{ params: Record<string, string | undefined> }>();
  return parsePathId(name, request.params[name]);
});

export const ApiIdParam = (name: string, description: string): MethodDecorator =>
  ApiParam({ name, type: 'integer', format: 'int32', description });

/** The query string as parsed (every parameter, for custom property criteria). */
export const RawQuery = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Record<string, unknown> => {
    const request = ctx.switchToHttp().getRequest<{ query?: Record<string, unknown> }>();
    return { ...(request.query ?? {}) };
  },
);

/** The request body exactly as parsed (validated by the use case, not the global pipe). */
export const RawBody = createParamDecorator((_: unknown, ctx: ExecutionContext): unknown => {
  return ctx.switchToHttp().getRequest<{ body?: unknown }>().body;
});
