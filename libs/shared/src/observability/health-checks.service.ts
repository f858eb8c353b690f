import { Injectable, Logger } from '@nestjs/common';
import {
  HealthCheckService,
  HealthIndicatorService,
  type HealthCheckResult,
  type HealthIndicatorResult,
} from '@nestjs/terminus';
import { RedisService } from '../redis/redis.service';
import { EnginePing, withTimeout } from './engine-ping.repository';

/** How long readiness waits for the engine's and Redis's answer to a ping. */
export const READINESS_PING_TIMEOUT_MS = 1000;

/** A probe's answer: its HTTP status and JSON body. */
export interface ProbeAnswer {
  status: 200 | 503;
  body: HealthCheckResult | (HealthCheckResult & { Message: string });
}

/**
 * Liveness and readiness of a process (api or worker), with @nestjs/terminus:
 * - live: the process runs its event loop (no dependency is asked: a restart would not
 *   bring a lost engine back);
 * - ready: the engine answers `ping` through the mongoose connection and Redis answers
 *   PING on the shared connection, each within READINESS_PING_TIMEOUT_MS.
 * Not ready answers 503 with terminus' body (`status`, `info`, `error`, `details`, each
 * dependency `up` or `down` with why) plus the service's `Message` naming what is down;
 * from `shuttingDown()` on (the worker's SIGTERM), 503 with status `shutting_down`.
 */
@Injectable()
export class HealthChecks {
  private readonly logger = new Logger('Health');
  private wasReady = true;
  private stopping = false;

  constructor(
    private readonly health: HealthCheckService,
    private readonly indicator: HealthIndicatorService,
    private readonly engine: EnginePing,
    private readonly redis: RedisService,
  ) {}

  async live(): Promise<ProbeAnswer> {
    return this.run([]);
  }

  /** From now on not ready: the process is stopping (its running jobs finish first). */
  shuttingDown(): void {
    this.stopping = true;
  }

  async ready(): Promise<ProbeAnswer> {
    if (this.stopping) {
      return {
        status: 503,
        body: {
          Message: 'Not ready: shutting down',
          status: 'shutting_down',
          info: {},
          error: {},
          details: {},
        },
      };
    }
    const answer = await this.run([() => this.engineUp(), () => this.redisUp()]);
    const ready = answer.status === 200;
    if (ready !== this.wasReady) {
      this.wasReady = ready;
      if (ready) this.logger.log('ready again: the engine and Redis answer');
      else this.logger.warn(`not ready: ${(answer.body as { Message: string }).Message}`);
    }
    return answer;
  }

  private async run(checks: (() => Promise<HealthIndicatorResult>)[]): Promise<ProbeAnswer> {
    try {
      return { status: 200, body: await this.health.check(checks) };
    } catch (error) {
      const body = (error as { getResponse?: () => unknown }).getResponse?.() as
        HealthCheckResult | undefined;
      if (!body?.details) throw error;
      const down = Object.entries(body.error ?? {}).map(
        ([name, result]) => `${name} (${String(result?.message ?? 'down')})`,
      );
      return { status: 503, body: { Message: `Not ready: ${down.join(', ')} down`, ...body } };
    }
  }

  private async engineUp(): Promise<HealthIndicatorResult> {
    const check = this.indicator.check('engine');
    try {
      await this.engine.ping(READINESS_PING_TIMEOUT_MS);
      return check.up();
    } catch (error) {
      return check.down({ message: messageOf(error) });
    }
  }

  private async redisUp(): Promise<HealthIndicatorResult> {
    const check = this.indicator.check('redis');
    try {
      const answer = await withTimeout(this.redis.client.ping(), READINESS_PING_TIMEOUT_MS);
      if (answer !== 'PONG') throw new Error(`answered ${answer}`);
      return check.up();
    } catch (error) {
      return check.down({ message: messageOf(error) });
    }
  }
}

/** What failed, without the driver's internals (no address, no stack). */
function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return 'failed';
  if (/^no answer within/.test(error.message)) return error.message;
  if (/not connected|closed|ECONNREFUSED|topology/i.test(`${error.name} ${error.message}`))
    return 'not connected';
  return 'failed';
}
