import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError, ClientRateLimits, effectiveQuota, ROUTE_CLASS_QUOTA } from '@app/shared';
import type { CallerRequest } from './caller-request';

/**
 * The client's rate limit of a route: its own quota of the route class (reads: GET, HEAD;
 * writes: the rest), else the process-wide default. Every limited answer carries
 * `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and
 * `RateLimit-Policy`; past the limit: 429 with `Retry-After`, nothing done. Placed after
 * the authentication guard by `@ApiAuth`: the quota comes with the caller that
 * authentication loaded (no engine command), and only a client's own routes are limited,
 * by its client id. A guard, not a Nest interceptor: an interceptor costs every request an
 * AsyncResource binding.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(private readonly limits: ClientRateLimits) {}

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<CallerRequest>();
    const clientId = request.params?.clientId;
    if (clientId === undefined) return true;
    const routeClass = request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'write';
    const { limit } = effectiveQuota(
      request.caller?.quotas,
      ROUTE_CLASS_QUOTA[routeClass],
      this.limits.defaults[routeClass],
    );
    const answer = this.limits.check(clientId, routeClass, limit);
    if (answer instanceof ApiError) throw answer;
    void http.getResponse<FastifyReply>().headers(answer);
    return true;
  }
}
