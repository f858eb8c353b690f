import { type CanActivate, type ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { ApiError } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';
import { Settings } from '../settings/settings';

/** The route classes limited apart: reads (GET, HEAD) and writes (everything else). */
type RouteClass = 'read' | 'write';

const WINDOW_SECONDS = 1;

/**
 * Per-client request limits, one per route class (RATE_LIMIT_READS_PER_SECOND,
 * RATE_LIMIT_WRITES_PER_SECOND; 0 turns a class off), counted in Redis so every api
 * process shares them (an in-process limiter stands in while Redis is unreachable). Every
 * limited answer carries `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`
 * (seconds) and `RateLimit-Policy`; past the limit: 429 with `Retry-After`, nothing done.
 *
 * A guard placed after the authentication guard by `@ApiAuth` (only a client's own routes
 * are limited, by its client id), not a Nest interceptor: an interceptor costs every
 * request an AsyncResource binding, a guard a function call.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly limiters: Partial<
    Record<RouteClass, { limit: number; limiter: RateLimiterAbstract }>
  > = {};

  constructor(redis: RedisService, settings: Settings) {
    const limits: Record<RouteClass, number> = {
      read: settings.rateLimitReadsPerSecond,
      write: settings.rateLimitWritesPerSecond,
    };
    for (const routeClass of ['read', 'write'] as const) {
      const limit = limits[routeClass];
      if (limit <= 0) continue;
      const options = { points: limit, duration: WINDOW_SECONDS };
      this.limiters[routeClass] = {
        limit,
        limiter: new RateLimiterRedis({
          storeClient: redis.client,
          keyPrefix: redis.key('rate', routeClass),
          ...options,
          insuranceLimiter: new RateLimiterMemory(options),
        }),
      };
    }
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const clientId = (request.params as { clientId?: string } | undefined)?.clientId;
    const routeClass: RouteClass =
      request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const limited = this.limiters[routeClass];
    if (clientId === undefined || !limited) return true;
    const state = await this.consume(limited.limiter, clientId);
    const resetSeconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000));
    const headers = {
      'RateLimit-Limit': String(limited.limit),
      'RateLimit-Remaining': String(Math.max(0, state.remainingPoints)),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': `${limited.limit};w=${WINDOW_SECONDS}`,
    };
    if (state.consumedPoints > limited.limit) {
      throw new ApiError(
        HttpStatus.TOO_MANY_REQUESTS,
        `Too many ${routeClass === 'read' ? 'reads' : 'writes'} for client ${clientId}: at most ${limited.limit} per second; retry after ${resetSeconds} s`,
        { ...headers, 'Retry-After': String(resetSeconds) },
      );
    }
    void http.getResponse<FastifyReply>().headers(headers);
    return true;
  }

  /** Counts the request; the limiter's state whether or not it was over the limit. */
  private async consume(limiter: RateLimiterAbstract, clientId: string): Promise<RateLimiterRes> {
    try {
      return await limiter.consume(clientId);
    } catch (rejected) {
      if (rejected instanceof RateLimiterRes) return rejected;
      throw rejected;
    }
  }
}
