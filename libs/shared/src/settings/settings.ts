import { EnvReader } from './env-reader';
import { type DeclaredFields, settingFields } from './setting-spec';
import { LOG_LEVELS, parseClusterNodes, SHARED_SETTINGS } from './shared-settings';

/**
 * Process settings, read once from the environment: what every process needs (addresses,
 * the engine, Redis, TLS, logging, deadlines). Each lib reads its own feature settings
 * from the same environment (`settingsProvider`: ProfileSettings, AuthSettings, ...).
 * Every variable is listed in the README's configuration table; keep the two in step.
 */
export class Settings implements DeclaredFields<typeof SHARED_SETTINGS, Settings> {
  /** The environment every settings class of the process reads from. */
  readonly env: NodeJS.ProcessEnv;
  declare readonly port: number;
  /** Nest log levels to print: error, warn, log (default), debug or verbose, and all above it. */
  readonly logLevels: ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
  declare readonly host: string;
  declare readonly mongodbUri: string;
  declare readonly redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: the Redis Cluster's seed nodes; empty: one Redis (REDIS_URL).
   * Set, every connection of the process is a cluster client (redis-connection.ts).
   */
  readonly redisClusterNodes: { host: string; port: number }[];
  /** Prefix of every Redis key the queues and leases use (lets tests share one Redis). */
  declare readonly queuePrefix: string;
  declare readonly readStampReuseMs: number;
  declare readonly tlsCertFile: string | undefined;
  declare readonly tlsKeyFile: string | undefined;
  /** Refuse plain HTTP requests with 403. */
  declare readonly requireHttps: boolean;
  /** Honour X-Forwarded-Proto / X-Forwarded-For (only behind a trusted proxy). */
  declare readonly trustProxy: boolean;
  /** How long routes that wait for the worker (PATCH, DELETE) wait before answering 202. */
  declare readonly syncWriteTimeoutMs: number;
  declare readonly workerConcurrency: number;
  /** Items of one tenant running at once across the workers (TenantFairQueue); 0: no cap. */
  declare readonly tenantMaxRunning: number;
  /**
   * How often a worker looks for jobs whose worker died (their lock, 30 s, lapsed) and takes
   * them up again (Bull's stalledInterval).
   */
  declare readonly stalledJobCheckMs: number;
  /** Every request answers within this (503 past it; see RequestDeadlineInterceptor). */
  declare readonly requestDeadlineMs: number;
  /**
   * A command on the process's own Redis connection (RedisService) with no answer within
   * this fails, so a stalled Redis is a 503 rather than a request that waits for good.
   */
  declare readonly redisCommandTimeoutMs: number;
  /** Emit the driver's command events (tests record every engine command with them). */
  declare readonly monitorEngineCommands: boolean;
  /**
   * On SIGTERM or SIGINT: how long in-flight requests (api) or running jobs (worker) may
   * take to finish before the process closes anyway.
   */
  declare readonly shutdownGraceMs: number;
  /** Origins a browser application may call the api from (CORS); none by default. */
  declare readonly corsOrigins: string[];
  /** How long the first answer to a write with an Idempotency-Key is kept for replays. */
  declare readonly idempotencyTtlSeconds: number;
  /** The operator credential (job status, queue dashboard); unset: those routes are off. */
  declare readonly operatorToken: string | undefined;
  /**
   * Serve the queue dashboard (api: /admin/queues), behind the operator credential: closed
   * (403) while OPERATOR_TOKEN is unset; false: not mounted at all (404).
   */
  declare readonly queueDashboardEnabled: boolean;
  /**
   * Requests per second a client may make, by route class (0: unlimited), unless it has a
   * quota of its own (set-client; ClientRateLimits).
   */
  declare readonly rateLimitReadsPerSecond: number;
  declare readonly rateLimitWritesPerSecond: number;
  /** Serve Prometheus metrics (api: GET /metrics; worker: on its health listener). */
  declare readonly metricsEnabled: boolean;
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  declare readonly metricsToken: string | undefined;
  /** Port of the worker's health and metrics listener (on HOST); 0: none. */
  declare readonly workerHealthPort: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = { ...env };
    const read = new EnvReader(this.env).read(SHARED_SETTINGS);
    Object.assign(this, settingFields(SHARED_SETTINGS, read));
    this.logLevels = LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(read.LOG_LEVEL as LogLevel) + 1);
    this.redisClusterNodes = parseClusterNodes(read.REDIS_CLUSTER_NODES);
  }
}

type LogLevel = (typeof LOG_LEVELS)[number];
