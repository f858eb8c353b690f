import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { InvalidInputError } from '../errors/domain-errors';

/*
 * Path and query values as sent, parsed by hand: the global validation pipe would turn
 * "abc" into NaN (or "yes" into true) before a message could quote it. Every refusal is a
 * 400 naming the parameter and the value as sent.
 */

export const INT32_MAX = 2147483647;

/** A request's query parameters as Fastify parses them (a repeated key gives an array). */
export type RawQuery = Record<string, string | string[] | undefined>;

export function queryOf(ctx: ExecutionContext): RawQuery {
  return ctx.switchToHttp().getRequest<{ query?: RawQuery }>().query ?? {};
}

/** The one value of a query parameter (undefined when absent); 400 when it is repeated. */
export function singleQueryValue(query: RawQuery, name: string): string | undefined {
  const value = query[name];
  if (Array.isArray(value)) {
    throw new InvalidInputError(`Invalid ${name} (value ${JSON.stringify(value)}): give it once`);
  }
  return value;
}

/** An integer from `min` to `max` given as decimal text. */
export function parseIntValue(
  name: string,
  value: unknown,
  { min = 1, max = INT32_MAX }: { min?: number; max?: number } = {},
): number {
  const text = typeof value === 'string' ? value : undefined;
  const number = Number(text);
  if (text === undefined || !/^\d+$/.test(text) || number < min || number > max) {
    throw new InvalidInputError(
      `Invalid ${name} (value ${JSON.stringify(value ?? null)}): must be an integer from ${min} to ${max}`,
    );
  }
  return number;
}

/**
 * `true` or `false` in any letter case; absent gives `fallback`. An empty value (`?flag=`) is
 * refused like any other non-boolean: the document types these parameters boolean, and a
 * client that sends the key means something by it.
 */
export function parseBooleanValue(
  name: string,
  value: string | undefined,
  fallback: boolean,
): boolean {
  if (value === undefined) return fallback;
  if (/^true$/i.test(value)) return true;
  if (/^false$/i.test(value)) return false;
  throw new InvalidInputError(
    `Invalid ${name} (value ${JSON.stringify(value)}): must be true or false`,
  );
}

/**
 * A positive integer path parameter, or (`in: 'query'`) an optional query parameter
 * (absent: undefined; empty is refused like any non-integer, as the document types it).
 */
export const PositiveIntParam = (
  name: string,
  options: { in?: 'path' | 'query'; max?: number } = {},
): ParameterDecorator =>
  createParamDecorator((_: unknown, ctx: ExecutionContext): number | undefined => {
    if (options.in === 'query') {
      const raw = singleQueryValue(queryOf(ctx), name);
      return raw === undefined ? undefined : parseIntValue(name, raw, options);
    }
    const params = ctx.switchToHttp().getRequest<{ params: Record<string, string> }>().params;
    return parseIntValue(name, params[name], options);
  })();
