import { Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { routeOptionsOf } from '../http/route-config';
import { Metrics } from './metrics.service';

/** The route label of a request no route matched (a 404 or 405 of an unknown path). */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Observes every answered request of the api in `http_request_duration_seconds`, by method,
 * route template (`/Profiles/v4/:clientId/Profile/:profileId`, never the path with its ids,
 * so the series stay few) and status. Fastify's onResponse hook sees every answer, those of
 * the hooks that refuse a request before any route runs and the deadline's 503 included.
 * Installed when the api's module is built, before Nest registers its routes.
 */
@Injectable()
export class HttpMetrics {
  constructor(adapterHost: HttpAdapterHost, metrics: Metrics) {
    const fastify = adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify?.addHook) return;
    fastify.addHook('onResponse', (request, reply, done) => {
      metrics.httpRequest(
        request.method,
        routeOptionsOf(request).url ?? UNMATCHED_ROUTE,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
      done();
    });
  }
}
