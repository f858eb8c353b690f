import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { applyDecorators } from '@nestjs/common';
import {
  ApiTextQuery,
  InvalidInputError,
  parseBooleanValue,
  queryOf,
  singleQueryValue,
} from '@app/shared';
import type { AlternateIdPair } from '../persistence/alternate-id-claims.service';

const single = singleQueryValue;

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
      throw new InvalidInputError(
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
export const BooleanQuery = createParamDecorator((name: string, ctx: ExecutionContext): boolean =>
  parseBooleanValue(name, single(queryOf(ctx), name), false),
);

export const ApiAlternateIdQuery = (): MethodDecorator =>
  applyDecorators(
    ApiTextQuery('alternateIdType', { required: true, description: 'Case-insensitive' }),
    ApiTextQuery('alternateId', { required: true, description: 'Case-insensitive' }),
  );
