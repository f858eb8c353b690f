import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';

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
