import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { ApiError } from '@app/shared';
import type { AlternateIdPair } from '../services/alternate-id-claims.service';

type QueryOf = Record<string, string | string[] | undefined>;

function queryOf(ctx: ExecutionContext): QueryOf {
  return ctx.switchToHttp().getRequest<{ query: QueryOf }>().query ?? {};
}

function single(query: QueryOf, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) {
    throw ApiError.badRequest(`Invalid ${name} (value ${JSON.stringify(value)}): give it once`);
  }
  return value;
}

/**
 * The `alternateIdType` and `alternateId` query parameters, both required (400 naming the
 * missing one). Matching is case-insensitive; the values are kept as sent.
 */
export const AlternateIdParams = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): AlternateIdPair => {
    const query = queryOf(ctx);
    const missing = ['alternateIdType', 'alternateId'].filter(
      (name) => !(single(query, name) ?? '').trim(),
    );
    if (missing.length) {
      throw ApiError.badRequest(
        missing.map((name) => `Query parameter ${name} is required (value missing)`).join('; '),
      );
    }
    return {
      AlternateIdType: single(query, 'alternateIdType')!,
      AlternateId: single(query, 'alternateId')!,
    };
  },
);

/** An optional boolean query parameter (`true`/`false`, any case); 400 otherwise. */
export const BooleanQuery = createParamDecorator((name: string, ctx: ExecutionContext): boolean => {
  const value = single(queryOf(ctx), name);
  if (value === undefined || value === '') return false;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw ApiError.badRequest(
    `Invalid ${name} (value ${JSON.stringify(value)}): must be true or false`,
  );
});

export const ApiAlternateIdQuery = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({ name: 'alternateIdType', required: true, description: 'Case-insensitive' }),
    ApiQuery({ name: 'alternateId', required: true, description: 'Case-insensitive' }),
  );
