import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Settings } from '../settings/settings';
import { HealthChecks } from './health-checks.service';
import { metricsRefusal } from './metrics-access';
import { Metrics } from './metrics.service';
import { HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH } from './observability-paths';

/**
 * The worker has no HTTP server of its own: with WORKER_HEALTH_PORT set (0, the default:
 * none), this small listener on HOST serves what the api serves to operators, the same way:
 * GET /health/live, /health/ready (the engine and Redis) and /metrics (METRICS_ENABLED,
 * METRICS_TOKEN), JSON bodies, 503 when not ready. A port already taken stops the worker's
 * start with the error.
 */
@Injectable()
export class WorkerHealthServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('WorkerHealth');
  private server?: Server;

  constructor(
    private readonly settings: Settings,
    private readonly health: HealthChecks,
    private readonly metrics: Metrics,
  ) {}

  /** The port listened on (the one asked for), or undefined when off. */
  get port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.settings.workerHealthPort;
    if (!port || this.server) return;
    const server = createServer((request, response) => {
      this.answer(request, response).catch((error: unknown) => {
        this.logger.error(`health request failed: ${String(error)}`);
        send(response, 503, { Message: 'The health check failed unexpectedly' });
      });
    });
    // Probes come every few seconds: no idle connection is kept long.
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.settings.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.logger.error(`health listener: ${String(error)}`));
    this.server = server;
    this.logger.log(`health and metrics on http://${this.settings.host}:${port}/`);
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '/').split('?')[0].replace(/^\/+|\/+$/g, '');
    const known = [HEALTH_LIVE_PATH, HEALTH_READY_PATH, METRICS_PATH].includes(path);
    if (!known) return send(response, 404, { Message: `Nothing is served at /${path}` });
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('Allow', 'GET, HEAD');
      return send(response, 405, {
        Message: `Method ${request.method} is not allowed on /${path}; allowed: GET, HEAD`,
      });
    }
    if (path === METRICS_PATH) {
      const refusal = metricsRefusal(this.settings, request.headers.authorization);
      if (refusal) {
        for (const [name, value] of Object.entries(refusal.headers))
          response.setHeader(name, value);
        return send(response, refusal.status, { Message: refusal.message });
      }
      const { contentType, body } = await this.metrics.render();
      response.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
      response.end(request.method === 'HEAD' ? undefined : body);
      return;
    }
    const probe = path === HEALTH_LIVE_PATH ? await this.health.live() : await this.health.ready();
    send(response, probe.status, probe.body, request.method === 'HEAD');
  }
}

function send(response: ServerResponse, status: number, body: unknown, headOnly = false): void {
  if (response.headersSent) return void response.end();
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  response.end(headOnly ? undefined : text);
}
