import { EnvReader } from './env-reader';
import type { DeclaredFields } from './setting-spec';
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
  readonly port: number;
  /** Nest log levels to print: error, warn, log (default), debug or verbose, and all above it. */
  readonly logLevels: ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
  readonly host: string;
  readonly mongodbUri: string;
  readonly redisUrl: string;
  /**
   * REDIS_CLUSTER_NODES: the Redis Cluster's seed nodes; empty: one Redis (REDIS_URL).
   * Set, every connection of the process is a cluster client (redis-connection.ts).
   */
  readonly redisClusterNodes: { host: string; port: number }[];
  /** Prefix of every Redis key the queues and leases use (lets tests share one Redis). */
  readonly queuePrefix: string;
  readonly readStampReuseMs: number;
  readonly tlsCertFile: string | undefined;
  readonly tlsKeyFile: string | undefined;
  /** Refuse plain HTTP requests with 403. */
  readonly requireHttps: boolean;
  /** Honour X-Forwarded-Proto / X-Forwarded-For (only behind a trusted proxy). */
  readonly trustProxy: boolean;
  /** How long routes that wait for the worker (PATCH, DELETE) wait before answering 202. */
  readonly syncWriteTimeoutMs: number;
  readonly workerConcurrency: number;
  /** Items of one tenant running at once across the workers (TenantFairQueue); 0: no cap. */
  readonly tenantMaxRunning: number;
  /**
   * How often a worker looks for jobs whose worker died (their lock, 30 s, lapsed) and takes
   * them up again (Bull's stalledInterval).
   */
  readonly stalledJobCheckMs: number;
  /** Every request answers within this (503 past it; see RequestDeadlineInterceptor). */
  readonly requestDeadlineMs: number;
  /**
   * A command on the process's own Redis connection (RedisService) with no answer within
   * this fails, so a stalled Redis is a 503 rather than a request that waits for good.
   */
  readonly redisCommandTimeoutMs: number;
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
  readonly operatorToken: string | undefined;
  /**
   * Serve the queue dashboard (api: /admin/queues), behind the operator credential: closed
   * (403) while OPERATOR_TOKEN is unset; false: not mounted at all (404).
   */
  readonly queueDashboardEnabled: boolean;
  /**
   * Requests per second a client may make, by route class (0: unlimited), unless it has a
   * quota of its own (set-client; ClientRateLimits).
   */
  readonly rateLimitReadsPerSecond: number;
  readonly rateLimitWritesPerSecond: number;
  /** Serve Prometheus metrics (api: GET /metrics; worker: on its health listener). */
  readonly metricsEnabled: boolean;
  /** When set, /metrics answers only `Authorization: Bearer <this>`. */
  readonly metricsToken: string | undefined;
  /** Port of the worker's health and metrics listener (on HOST); 0: none. */
  readonly workerHealthPort: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.env = { ...env };
    const read = new EnvReader(this.env).read(SHARED_SETTINGS);
    // One by one, not Object.assign: an object given this many properties after its
    // construction turns into a dictionary (V8), and the hot paths read these on every
    // request (settings-fast-properties.spec.ts).
    this.port = read.PORT;
    this.host = read.HOST;
    this.mongodbUri = read.MONGODB_URI;
    this.redisUrl = read.REDIS_URL;
    this.queuePrefix = read.QUEUE_PREFIX;
    this.tlsCertFile = read.TLS_CERT_FILE;
    this.tlsKeyFile = read.TLS_KEY_FILE;
    this.requireHttps = read.REQUIRE_HTTPS;
    this.trustProxy = read.TRUST_PROXY;
    this.syncWriteTimeoutMs = read.SYNC_WRITE_TIMEOUT_MS;
    this.workerConcurrency = read.WORKER_CONCURRENCY;
    this.tenantMaxRunning = read.TENANT_MAX_RUNNING;
    this.stalledJobCheckMs = read.STALLED_JOB_CHECK_MS;
    this.requestDeadlineMs = read.REQUEST_DEADLINE_MS;
    this.redisCommandTimeoutMs = read.REDIS_COMMAND_TIMEOUT_MS;
    this.monitorEngineCommands = read.MONITOR_ENGINE_COMMANDS;
    this.shutdownGraceMs = read.SHUTDOWN_GRACE_MS;
    this.corsOrigins = read.CORS_ORIGINS;
    this.idempotencyTtlSeconds = read.IDEMPOTENCY_TTL_SECONDS;
    this.operatorToken = read.OPERATOR_TOKEN;
    this.queueDashboardEnabled = read.QUEUE_DASHBOARD_ENABLED;
    this.rateLimitReadsPerSecond = read.RATE_LIMIT_READS_PER_SECOND;
    this.rateLimitWritesPerSecond = read.RATE_LIMIT_WRITES_PER_SECOND;
    this.readStampReuseMs = read.READ_STAMP_REUSE_MS;
    this.metricsEnabled = read.METRICS_ENABLED;
    this.metricsToken = read.METRICS_TOKEN;
    this.workerHealthPort = read.WORKER_HEALTH_PORT;
    this.logLevels = LOG_LEVELS.slice(0, LOG_LEVELS.indexOf(read.LOG_LEVEL as LogLevel) + 1);
    this.redisClusterNodes = parseClusterNodes(read.REDIS_CLUSTER_NODES);
  }
}

type LogLevel = (typeof LOG_LEVELS)[number];
