import {
  type CanActivate,
  type ExecutionContext,
  HttpStatus,
  Injectable,
  type OnModuleDestroy,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors/api-error';
import { RedisService } from '../redis/redis.service';
import { Settings } from '../settings/settings';
import { redisSharedCount, SharedWindowCounter } from './shared-window-counter';

/** The route classes limited apart: reads (GET, HEAD) and writes (everything else). */
type RouteClass = 'read' | 'write';

const WINDOW_SECONDS = 1;

/**
 * Per-client request limits, one per route class (RATE_LIMIT_READS_PER_SECOND,
 * RATE_LIMIT_WRITES_PER_SECOND; 0 turns a class off), in windows of a second counted in
 * Redis so every api process shares them (`SharedWindowCounter`: batched every few
 * milliseconds, not a round trip per request). One per process (a global provider).
 */
@Injectable()
export class ClientRateLimits implements OnModuleDestroy {
  private readonly limits: Partial<
    Record<RouteClass, { limit: number; counter: SharedWindowCounter }>
  > = {};

  constructor(
    private readonly redis: RedisService,
    settings: Settings,
  ) {
    const limits: Record<RouteClass, number> = {
      read: settings.rateLimitReadsPerSecond,
      write: settings.rateLimitWritesPerSecond,
    };
    for (const routeClass of ['read', 'write'] as const) {
      const limit = limits[routeClass];
      if (limit <= 0) continue;
      this.limits[routeClass] = {
        limit,
        counter: new SharedWindowCounter(WINDOW_SECONDS * 1000, redisSharedCount(redis.client)),
      };
    }
  }

  /**
   * Counts a request of the client; its `RateLimit-*` headers, and the 429 to answer when
   * it is over the limit.
   */
  check(clientId: string, routeClass: RouteClass): Record<string, string> | ApiError {
    const limited = this.limits[routeClass];
    if (!limited) return {};
    const { count, msLeft } = limited.counter.count(this.redis.key('rate', routeClass, clientId));
    const resetSeconds = Math.max(1, Math.ceil(msLeft / 1000));
    const headers = {
      'RateLimit-Limit': String(limited.limit),
      'RateLimit-Remaining': String(Math.max(0, limited.limit - count)),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': `${limited.limit};w=${WINDOW_SECONDS}`,
    };
    if (count <= limited.limit) return headers;
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      `Too many ${routeClass === 'read' ? 'reads' : 'writes'} for client ${clientId}: at most ${limited.limit} per second; retry after ${resetSeconds} s`,
      { ...headers, 'Retry-After': String(resetSeconds) },
    );
  }

  /** Sends what is counted but not yet shared. */
  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.limits).map(({ counter }) => counter.flush()));
  }
}

/**
 * The client's rate limit of a route: every limited answer carries `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy`; past the
 * limit: 429 with `Retry-After`, nothing done. A guard placed after the authentication
 * guard by `@ApiAuth` (only a client's own routes are limited, by its client id), not a
 * Nest interceptor: an interceptor costs every request an AsyncResource binding.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limits: ClientRateLimits) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const clientId = (request.params as { clientId?: string } | undefined)?.clientId;
    if (clientId === undefined) return true;
    const routeClass = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const answer = this.limits.check(clientId, routeClass);
    if (answer instanceof ApiError) throw answer;
    void http.getResponse<FastifyReply>().headers(answer);
    return true;
  }
}
