import { EnvReader } from './env-reader';

/**
 * Process settings, read once from the environment: what every process needs (addresses,
 * the engine, Redis, TLS, logging, deadlines). Each lib reads its own feature settings
 * from the same environment (`settingsProvider`: ProfileSettings, AuthSettings, ...).
 * Every variable is listed in the README's configuration table; keep the two in step.
 */
export class Settings {
  /** The environment every settings class of the process reads from. */
  readonly env: NodeJS.ProcessEnv;
  readonly port: number;
  /** Nest log levels to print: error, warn, log (default), debug or verbose, and all above it. */
  readonly logLevels: ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
  readonly host: string;
  readonly mongodbUri: string;
  readonly redisUrl: string;
  /** Prefix of every Redis key the queues and leases use (lets tests share one Redis). */
  readonly queuePrefix: string;
  readonly tlsCertFile?: string;
  readonly tlsKeyFile?: string;
  /** Refuse plain HTTP requests with 403. */
  readonly requireHttps: boolean;
  /** Honour X-Forwarded-Proto / X-Forwarded-For (only behind a trusted proxy). */
  readonly trustProxy: boolean;
  /** How long routes that wait for the worker (PATCH, DELETE) wait before answering 202. */
  readonly syncWriteTimeoutMs: number;
  readonly workerConcurrency: number;
  /**
   * How often a worker looks for jobs whose worker died (their lock, 30 s, lapsed) and takes
   * them up again (Bull's stalledInterval).
   */
  readonly stalledJobCheckMs: number;
  /** Every request answers within this (503 past it; see RequestDeadlineInterceptor). */
  readonly requestDeadlineMs: number;
  /** Emit the driver's command events (tests record every engine command with them). */
  readonly monitorEngineCommands: boolean;
  /**
   * On SIGTERM or SIGINT: how long in-flight requests (api) or running jobs (worker) may
   * take to finish before the process closes anyway.
   */
  readonly shutdownGraceMs: number;
  /** Origins a browser application may call the api from (CORS); none by default. */
  readonly corsOrigins: string[];
  /** How long the first answer to a write with an Idempotency-Key is kept for replays. */
  readonly idempotencyTtlSeconds: number;
  /** The operator credential (job status, queue dashboard); unset: those routes are off. */
  readonly operatorToken?: string;
  /**
   * Serve the queue dashboard (api: /admin/queues), behind the operator credential: closed
   * (403) while OPERATOR_TOKEN is unset; false: not mounted at all (404).
   */
  readonly queueDashboardEnabled: boolean;
  /** Requests per second one client may make, by route class (0: unlimited). */
  readonly rateLimitReadsPerSecond: number;
  readonly rateLimitWritesPerSecond: number;
  /** Serve Prometheus metrics (api: GET /metrics; worker: on its health listener). */
  readonly metricsEnabled: boolean;
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  readonly metricsToken?: string;
  /** Port of the worker's health and metrics listener (on HOST); 0: none. */
  readonly workerHealthPort: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = { ...env };
    const read = new EnvReader(this.env);
    this.port = read.int('PORT', 3000);
    this.logLevels = logLevelsOf(env.LOG_LEVEL || 'log');
    this.host = read.text('HOST', '127.0.0.1');
    this.mongodbUri = read.required('MONGODB_URI');
    this.redisUrl = read.required('REDIS_URL');
    this.queuePrefix = read.text('QUEUE_PREFIX', 'pcp');
    this.tlsCertFile = read.optional('TLS_CERT_FILE');
    this.tlsKeyFile = read.optional('TLS_KEY_FILE');
    this.requireHttps = read.bool('REQUIRE_HTTPS', false);
    this.trustProxy = read.bool('TRUST_PROXY', false);
    this.syncWriteTimeoutMs = read.int('SYNC_WRITE_TIMEOUT_MS', 10000);
    this.workerConcurrency = read.int('WORKER_CONCURRENCY', 4);
    this.stalledJobCheckMs = read.int('STALLED_JOB_CHECK_MS', 30_000, 100);
    this.requestDeadlineMs = read.int('REQUEST_DEADLINE_MS', 2000, 100);
    this.monitorEngineCommands = read.bool('MONITOR_ENGINE_COMMANDS', false);
    this.shutdownGraceMs = read.int('SHUTDOWN_GRACE_MS', 15000);
    this.corsOrigins = read.list('CORS_ORIGINS');
    this.idempotencyTtlSeconds = read.int('IDEMPOTENCY_TTL_SECONDS', 86400, 1);
    this.operatorToken = read.optional('OPERATOR_TOKEN');
    this.queueDashboardEnabled = read.bool('QUEUE_DASHBOARD_ENABLED', true);
    this.rateLimitReadsPerSecond = read.int('RATE_LIMIT_READS_PER_SECOND', 5000);
    this.rateLimitWritesPerSecond = read.int('RATE_LIMIT_WRITES_PER_SECOND', 2000);
    this.metricsEnabled = read.bool('METRICS_ENABLED', true);
    this.metricsToken = read.optional('METRICS_TOKEN');
    this.workerHealthPort = read.int('WORKER_HEALTH_PORT', 0);
  }
}

const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

function logLevelsOf(level: string): (typeof LOG_LEVELS)[number][] {
  const index = LOG_LEVELS.indexOf(level as (typeof LOG_LEVELS)[number]);
  if (index < 0) {
    throw new Error(
      `Environment variable LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`,
    );
  }
  return LOG_LEVELS.slice(0, index + 1);
}
