import { applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiParam, ApiQuery } from '@nestjs/swagger';
import { ApiError } from '@app/shared';
import { LOCALE_PATTERN } from '../../common/localized-field.dto';

const INT32_MAX = 2147483647;

interface RawRequest {
  params: Record<string, string | undefined>;
  query: Record<string, unknown>;
}

function parseInt32(name: string, value: unknown, min: number): number {
  const text = typeof value === 'string' ? value : undefined;
  const number = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || number < min || number > INT32_MAX) {
    throw ApiError.badRequest(
      `Invalid ${name} (value ${JSON.stringify(value ?? null)}): must be an integer from ${min} to ${INT32_MAX}`,
    );
  }
  return number;
}

/** The `{typeId}` path segment: a positive int32, else a 400 quoting the value as sent. */
export const TypeIdParam = createParamDecorator((_: unknown, ctx: ExecutionContext): number => {
  const request = ctx.switchToHttp().getRequest<RawRequest>();
  return parseInt32('typeId', request.params.typeId, 1);
});

export const ApiTypeIdParam = (): MethodDecorator =>
  ApiParam({
    name: 'typeId',
    type: 'integer',
    format: 'int32',
    description: 'TypeId of the entry (1 to 2147483647)',
  });

export interface TypeListParams {
  /** 0: every entry. */
  typeId: number;
  locale?: string;
}

/** A query parameter by name, matched case-insensitively (`Id`, `id`, `Locale`, `locale`). */
function queryValue(query: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(query).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : query[key];
}

/**
 * `Id` and `locale` of a GET. Names match case-insensitively, as in the original
 * service; other query parameters are ignored.
 */
export const TypeListQueryParams = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): TypeListParams => {
    const { query = {} } = ctx.switchToHttp().getRequest<RawRequest>();
    const id = queryValue(query, 'id');
    const locale = queryValue(query, 'locale');
    const typeId = id === undefined || id === '' ? 0 : parseInt32('Id', id, 0);
    if (locale === undefined || locale === '') return { typeId };
    if (typeof locale !== 'string' || !LOCALE_PATTERN.test(locale)) {
      throw ApiError.badRequest(
        `Invalid locale (value ${JSON.stringify(locale)}): must be a locale code such as en or fr-ca`,
      );
    }
    return { typeId, locale };
  },
);

export const ApiTypeListQuery = (): MethodDecorator =>
  applyDecorators(
    ApiQuery({
      name: 'Id',
      required: false,
      description: 'TypeId of one entry; 0 or absent returns every entry. An unknown Id is a 404.',
      schema: { type: 'integer', format: 'int32', default: 0, minimum: 0 },
    }),
    ApiQuery({
      name: 'locale',
      required: false,
      type: String,
      description:
        'Return only the LocalizedFields of this locale (exact, else fr-ca falls back to fr and fr ' +
        'to any fr-*). 404 when no returned entry has localised fields for it.',
      example: 'fr-ca',
    }),
  );
