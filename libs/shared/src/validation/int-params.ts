import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiError } from '../errors/api-error';

const INT32_MAX = 2147483647;

interface IntParamOptions {
  /** Path parameter (default) or query parameter. */
  in?: 'path' | 'query';
  max?: number;
}

/**
 * A positive integer path or query parameter, parsed from the raw string (the global
 * validation pipe would turn "abc" into NaN before a pipe could quote it); 400 naming the
 * parameter and the value as sent. An absent query parameter is undefined.
 */
export const PositiveIntParam = (name: string, options: IntParamOptions = {}): ParameterDecorator =>
  createParamDecorator((_: unknown, ctx: ExecutionContext): number | undefined => {
    const request = ctx.switchToHttp().getRequest<{
      params: Record<string, string | undefined>;
      query: Record<string, unknown>;
    }>();
    const raw = options.in === 'query' ? request.query[name] : request.params[name];
    if (options.in === 'query' && (raw === undefined || raw === '')) return undefined;
    const max = options.max ?? INT32_MAX;
    const value = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= 1 && value <= max)) {
      throw ApiError.badRequest(
        `Invalid ${name} (value ${JSON.stringify(raw ?? null)}): must be an integer from 1 to ${max}`,
      );
    }
    return value;
  })();
