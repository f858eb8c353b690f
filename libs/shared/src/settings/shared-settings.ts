import { defineSettings } from './setting-spec';

/** Nest log levels, least verbose first: a level prints itself and all before it. */
export const LOG_LEVELS = ['error', 'warn', 'log', 'debug', 'verbose'] as const;

/**
 * The process settings' variables (Settings): what every process needs (addresses, the
 * engine, Redis, TLS, logging, deadlines). The README's configuration table says each at
 * length (readme-settings.spec.ts keeps the two in step).
 */
export const SHARED_SETTINGS = defineSettings('shared', [
  { name: 'PORT', field: 'port', type: 'int', default: 3000, meaning: 'api port' },
  { name: 'HOST', field: 'host', type: 'text', default: '127.0.0.1', meaning: 'api bind address' },
  {
    name: 'MONGODB_URI',
    field: 'mongodbUri',
    type: 'text',
    required: true,
    secret: true,
    documentedDefault: 'embedded engine',
    meaning: 'MongoDB URI including the database name (npm start: the embedded engine)',
  },
  {
    name: 'REDIS_URL',
    field: 'redisUrl',
    type: 'text',
    required: true,
    secret: true,
    documentedDefault: 'embedded `redis-server` on a free loopback port',
    meaning: 'Redis for the queue and the per-profile leases',
  },
  {
    name: 'REDIS_CLUSTER_NODES',
    type: 'text',
    trim: true,
    problem: clusterNodesProblem,
    meaning:
      'comma-separated host:port of Redis Cluster nodes: every connection is a cluster client seeded with them (and REDIS_URL, whose password and rediss: TLS apply to each node); unset: the one Redis of REDIS_URL',
  },
  {
    name: 'QUEUE_PREFIX',
    field: 'queuePrefix',
    type: 'text',
    default: 'pcp',
    // A brace would make the prefix a hash tag and pin every key to one cluster slot.
    problem: (value) => (/[{}]/.test(value) ? 'must not contain { or }' : undefined),
    meaning: 'prefix of every Redis key',
  },
  {
    name: 'TLS_CERT_FILE',
    field: 'tlsCertFile',
    type: 'text',
    meaning: 'serve HTTPS with this certificate (with TLS_KEY_FILE)',
  },
  {
    name: 'TLS_KEY_FILE',
    field: 'tlsKeyFile',
    type: 'text',
    meaning: 'serve HTTPS with this key (with TLS_CERT_FILE)',
  },
  {
    name: 'REQUIRE_HTTPS',
    field: 'requireHttps',
    type: 'bool',
    default: false,
    meaning: 'refuse plain-HTTP requests with 403',
  },
  {
    name: 'TRUST_PROXY',
    field: 'trustProxy',
    type: 'bool',
    default: false,
    meaning: 'honour X-Forwarded-Proto/-For; only behind a proxy you trust',
  },
  {
    name: 'SYNC_WRITE_TIMEOUT_MS',
    field: 'syncWriteTimeoutMs',
    type: 'int',
    default: 10000,
    meaning: 'how long routes that wait for the worker wait before answering 202',
  },
  {
    name: 'WORKER_CONCURRENCY',
    field: 'workerConcurrency',
    type: 'int',
    default: 4,
    meaning:
      'job loops one worker process runs per kind of job it serves (each takes the next job)',
  },
  {
    name: 'TENANT_MAX_RUNNING',
    field: 'tenantMaxRunning',
    type: 'int',
    default: 4,
    meaning:
      "items of one tenant's work (passes of its writes, import runs, deliveries) running at once across all workers; 0: no limit",
  },
  {
    name: 'STALLED_JOB_CHECK_MS',
    field: 'stalledJobCheckMs',
    type: 'int',
    default: 30_000,
    atLeast: 100,
    meaning: 'how often a worker takes up the jobs of a worker that died',
  },
  {
    name: 'REQUEST_DEADLINE_MS',
    field: 'requestDeadlineMs',
    type: 'int',
    default: 2000,
    atLeast: 100,
    meaning: 'every request answers within this, else 503',
  },
  {
    name: 'REDIS_COMMAND_TIMEOUT_MS',
    field: 'redisCommandTimeoutMs',
    type: 'int',
    default: 2000,
    atLeast: 100,
    meaning: 'a Redis command of the service that has no answer within this fails',
  },
  {
    name: 'MONITOR_ENGINE_COMMANDS',
    field: 'monitorEngineCommands',
    type: 'bool',
    default: false,
    meaning: "emit the MongoDB driver's command events",
  },
  {
    name: 'SHUTDOWN_GRACE_MS',
    field: 'shutdownGraceMs',
    type: 'int',
    default: 15000,
    meaning: 'on SIGTERM or SIGINT, how long requests in flight and running jobs may take',
  },
  {
    name: 'CORS_ORIGINS',
    field: 'corsOrigins',
    type: 'list',
    meaning: 'comma-separated origins a browser application may call the api from',
  },
  {
    name: 'IDEMPOTENCY_TTL_SECONDS',
    field: 'idempotencyTtlSeconds',
    type: 'int',
    default: 86400,
    atLeast: 1,
    meaning: 'how long the first answer to a write with an Idempotency-Key is kept',
  },
  {
    name: 'OPERATOR_TOKEN',
    field: 'operatorToken',
    type: 'text',
    secret: true,
    meaning: 'the operator credential (job status, queue dashboard); unset: those are off',
  },
  {
    name: 'QUEUE_DASHBOARD_ENABLED',
    field: 'queueDashboardEnabled',
    type: 'bool',
    default: true,
    meaning: 'serve the queue dashboard at /admin/queues, behind OPERATOR_TOKEN',
  },
  {
    name: 'RATE_LIMIT_READS_PER_SECOND',
    field: 'rateLimitReadsPerSecond',
    type: 'int',
    default: 5000,
    meaning: 'GET requests per second a client without its own quota may make (0: unlimited)',
  },
  {
    name: 'RATE_LIMIT_WRITES_PER_SECOND',
    field: 'rateLimitWritesPerSecond',
    type: 'int',
    default: 2000,
    meaning: 'writes per second a client without its own quota may make (0: unlimited)',
  },
  {
    name: 'READ_STAMP_REUSE_MS',
    field: 'readStampReuseMs',
    type: 'int',
    default: 1000,
    meaning:
      'how long a read path (contact decisions, searches) reuses the configuration and do-not-contact stamps it read, while announcements of their changes arrive (0: read on every request)',
  },
  {
    name: 'LOG_LEVEL',
    type: 'text',
    default: 'log',
    values: LOG_LEVELS,
    documentedDefault: '`log` (`warn` under `npm start`)',
    meaning: 'error, warn, log, debug or verbose: the least important level logged',
  },
  {
    name: 'METRICS_ENABLED',
    field: 'metricsEnabled',
    type: 'bool',
    default: true,
    meaning: 'serve Prometheus metrics (api: GET /metrics; worker: on WORKER_HEALTH_PORT)',
  },
  {
    name: 'METRICS_TOKEN',
    field: 'metricsToken',
    type: 'text',
    secret: true,
    meaning: 'when set, /metrics answers only Authorization: Bearer <this>',
  },
  {
    name: 'WORKER_HEALTH_PORT',
    field: 'workerHealthPort',
    type: 'int',
    default: 0,
    documentedDefault: '`0` (none)',
    meaning: "port of the worker's health and metrics listener (on HOST); 0: none",
  },
] as const);

/** `host:port`, the form of each REDIS_CLUSTER_NODES entry (host without brackets or commas). */
const CLUSTER_NODE = /^[^\s,:[\]]+:(\d{1,5})$/;

/** What is wrong with a REDIS_CLUSTER_NODES value (undefined: nothing). */
function clusterNodesProblem(value: string): string | undefined {
  const bad = value
    .split(',')
    .map((entry) => entry.trim())
    .find((entry) => {
      const port = CLUSTER_NODE.exec(entry)?.[1];
      return port === undefined || Number(port) < 1 || Number(port) > 65535;
    });
  return bad === undefined ? undefined : `"${bad}" is not host:port`;
}

/** The nodes of a REDIS_CLUSTER_NODES value (already checked), in order. */
export function parseClusterNodes(value: string | undefined): { host: string; port: number }[] {
  if (!value) return [];
  return value.split(',').map((entry) => {
    const at = entry.trim().lastIndexOf(':');
    return { host: entry.trim().slice(0, at), port: Number(entry.trim().slice(at + 1)) };
  });
}
