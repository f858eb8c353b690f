import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';

/** The custom property criteria of IncludeMatching and IncludeAll (any query parameter). */
export const ApiCriteriaQuery = (example: string): MethodDecorator =>
  ApiQuery({
    name: 'criteria',
    required: false,
    style: 'form',
    explode: true,
    description: `Custom property names, each with an optional value: ${example}`,
    schema: { type: 'object', additionalProperties: { type: 'string' } },
  });

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
