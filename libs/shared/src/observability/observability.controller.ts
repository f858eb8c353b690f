import { Controller, Get, Headers, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiSecurity,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors/api-error';
import { Settings } from '../settings/settings';
import { HealthChecks, type ProbeAnswer } from './health-checks.service';
import { metricsRefusal } from './metrics-access';
import { Metrics } from './metrics.service';
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH } from './observability-paths';

const PROBE_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['ok', 'error'] },
    info: { type: 'object', description: 'The dependencies that are up' },
    error: { type: 'object', description: 'The dependencies that are down, with why' },
    details: { type: 'object', description: 'Every dependency checked: engine, redis' },
  },
};

/**
 * The operator's routes of the api, outside /Profiles/v4 and without tenant authentication
 * (bootstrap excludes them from the prefix): liveness, readiness (the engine and Redis) and
 * the Prometheus metrics. The worker serves the same on WORKER_HEALTH_PORT.
 */
@ApiTags('Operations')
@Controller()
export class ObservabilityController {
  constructor(
    private readonly health: HealthChecks,
    private readonly metrics: Metrics,
    private readonly settings: Settings,
  ) {}

  @Get(HEALTH_LIVE_PATH)
  @ApiOperation({
    summary: 'Liveness: the process runs',
    description: 'Asks no dependency. 200 {"status":"ok"}; no authorization.',
  })
  @ApiOkResponse({ schema: PROBE_SCHEMA })
  async live(@Res({ passthrough: true }) reply: FastifyReply): Promise<ProbeAnswer['body']> {
    return answer(reply, await this.health.live());
  }

  @Get(HEALTH_READY_PATH)
  @ApiOperation({
    summary: 'Readiness: the engine and Redis answer',
    description:
      'Pings the engine (through the database connection) and Redis, each within 1 s. 200 when both answer; ' +
      '503 when one does not, with a Message naming it and each dependency up or down. No authorization.',
  })
  @ApiOkResponse({ schema: PROBE_SCHEMA })
  @ApiServiceUnavailableResponse({
    description: 'Not ready: {"Message": "Not ready: engine (...) down", "status": "error", ...}',
  })
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<ProbeAnswer['body']> {
    return answer(reply, await this.health.ready());
  }

  @Get(METRICS_PATH)
  // Public unless METRICS_TOKEN is set: no credential ({}) or the bearer METRICS_TOKEN.
  @ApiSecurity({})
  @ApiBearerAuth()
  @ApiOperation({
    summary: 'Prometheus metrics',
    description:
      'The Prometheus text exposition: request durations by route template, queue depths, ' +
      'process figures. Only while METRICS_ENABLED (404 otherwise); with METRICS_TOKEN set, ' +
      'only with Authorization: Bearer <METRICS_TOKEN> (401 otherwise).',
  })
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text format 0.0.4', schema: { type: 'string' } })
  @ApiUnauthorizedResponse({ description: 'METRICS_TOKEN is set and was not sent' })
  @ApiNotFoundResponse({ description: 'METRICS_ENABLED is false' })
  async scrape(
    @Headers('authorization') authorization: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const refusal = metricsRefusal(this.settings, authorization);
    if (refusal) throw new ApiError(refusal.status, refusal.message, refusal.headers);
    const { contentType, body } = await this.metrics.render();
    void reply.header('Content-Type', contentType).header('Cache-Control', 'no-store');
    return body;
  }
}

function answer(reply: FastifyReply, { status, body }: ProbeAnswer): ProbeAnswer['body'] {
  void reply.status(status).header('Cache-Control', 'no-store');
  return body;
}
