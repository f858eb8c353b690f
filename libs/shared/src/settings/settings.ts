/**
 * Process settings, read once from the environment. Every variable is listed in the
 * README's configuration table; keep the two in step.
 */
export class Settings {
  readonly port: number;
  /** Nest log levels to print: error, warn, log (default), debug or verbose, and all above it. */
  readonly logLevels: ('error' | 'warn' | 'log' | 'debug' | 'verbose')[];
  readonly host: string;
  readonly mongodbUri: string;
  readonly redisUrl: string;
  /** Prefix of every Redis key the queues and leases use (lets tests share one Redis). */
  readonly queuePrefix: string;
  /** Key that signs and verifies access tokens (HS256). */
  readonly jwtSecret: string;
  readonly tlsCertFile?: string;
  readonly tlsKeyFile?: string;
  /** Refuse plain HTTP requests with 403. */
  readonly requireHttps: boolean;
  /** Honour X-Forwarded-Proto / X-Forwarded-For (only behind a trusted proxy). */
  readonly trustProxy: boolean;
  /** Realm named in WWW-Authenticate headers. */
  readonly authRealm: string;
  /** How long PATCH and DELETE wait for their queued write before answering 202. */
  readonly syncWriteTimeoutMs: number;
  readonly workerConcurrency: number;
  /** Writes per second one api process accepts for a tenant before they take the bulk lane. */
  readonly tenantBurstPerSecond: number;
  /**
   * How long an api process reuses the auth stamps it read while it receives their change
   * announcements (0: read them on every request). Bounds the life of a change that was
   * not announced (a stamp lost by Redis while the engine changed behind it).
   */
  readonly authStampReuseMs: number;
  /** How often the worker looks for accepted writes that no job is carrying. */
  readonly sweepIntervalMs: number;
  /** A pending write older than this is re-enqueued by the sweeper. */
  readonly staleWriteMs: number;
  /** Attempts before a write that keeps failing with an unexpected error is marked failed. */
  readonly maxWriteAttempts: number;
  /** Interval of the scheduled consent and preference expiry job (0: not scheduled). */
  readonly consentExpiryIntervalMs: number;
  /** Interval of the scheduled new-consent-version job (0: not scheduled). */
  readonly consentVersionIntervalMs: number;
  /** Interval of the scheduled do-not-contact propagation job (0: not scheduled). */
  readonly dncPropagationIntervalMs: number;
  /** Profiles a scheduled job reads per page (the version job saves its cursor per page). */
  readonly scheduledJobBatchSize: number;
  /** Records of applied writes kept per profile (GET .../Updates); older ones are deleted. */
  readonly writeRecordsKept: number;
  /** Failed token authentications of one OAuth client id before it is throttled (429). */
  readonly tokenFailureLimit: number;
  /** The window, in seconds, those failures are counted in (and the longest throttle). */
  readonly tokenFailureWindowSeconds: number;
  /** Every request answers within this (503 past it; see RequestDeadlineInterceptor). */
  readonly requestDeadlineMs: number;
  /** Candidates a user's search may read from the key index before it is a 403. */
  readonly searchCandidateLimit: number;
  /**
   * Whether auth changes made by this process are announced to the running api processes
   * (the auth stamps in Redis); the admin CLI turns it off when no stack is running.
   */
  readonly notifyAuthChanges: boolean;
  /** Emit the driver's command events (tests record every engine command with them). */
  readonly monitorEngineCommands: boolean;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.port = intOf(env, 'PORT', 3000);
    this.logLevels = logLevelsOf(env.LOG_LEVEL || 'log');
    this.host = env.HOST || '127.0.0.1';
    this.mongodbUri = required(env, 'MONGODB_URI');
    this.redisUrl = required(env, 'REDIS_URL');
    this.queuePrefix = env.QUEUE_PREFIX || 'pcp';
    this.jwtSecret = required(env, 'JWT_SECRET');
    this.tlsCertFile = env.TLS_CERT_FILE || undefined;
    this.tlsKeyFile = env.TLS_KEY_FILE || undefined;
    this.requireHttps = boolOf(env, 'REQUIRE_HTTPS', false);
    this.trustProxy = boolOf(env, 'TRUST_PROXY', false);
    this.authRealm = env.AUTH_REALM || 'Profiles';
    this.syncWriteTimeoutMs = intOf(env, 'SYNC_WRITE_TIMEOUT_MS', 10000);
    this.workerConcurrency = intOf(env, 'WORKER_CONCURRENCY', 4);
    this.tenantBurstPerSecond = Math.max(1, intOf(env, 'TENANT_BURST_PER_SECOND', 50));
    this.authStampReuseMs = intOf(env, 'AUTH_STAMP_REUSE_MS', 1000);
    this.sweepIntervalMs = intOf(env, 'SWEEP_INTERVAL_MS', 30000);
    this.staleWriteMs = intOf(env, 'STALE_WRITE_MS', 60000);
    this.maxWriteAttempts = intOf(env, 'MAX_WRITE_ATTEMPTS', 5);
    this.consentExpiryIntervalMs = intOf(env, 'CONSENT_EXPIRY_INTERVAL_MS', 3600000);
    this.consentVersionIntervalMs = intOf(env, 'CONSENT_VERSION_INTERVAL_MS', 60000);
    this.dncPropagationIntervalMs = intOf(env, 'DNC_PROPAGATION_INTERVAL_MS', 60000);
    this.scheduledJobBatchSize = Math.max(1, intOf(env, 'SCHEDULED_JOB_BATCH_SIZE', 200));
    this.writeRecordsKept = Math.max(1, intOf(env, 'WRITE_RECORDS_KEPT', 20));
    this.monitorEngineCommands = boolOf(env, 'MONITOR_ENGINE_COMMANDS', false);
    this.tokenFailureLimit = Math.max(1, intOf(env, 'TOKEN_FAILURE_LIMIT', 10));
    this.tokenFailureWindowSeconds = Math.max(1, intOf(env, 'TOKEN_FAILURE_WINDOW_SECONDS', 60));
    this.requestDeadlineMs = Math.max(100, intOf(env, 'REQUEST_DEADLINE_MS', 2000));
    this.searchCandidateLimit = Math.max(1, intOf(env, 'SEARCH_CANDIDATE_LIMIT', 5000));
    this.notifyAuthChanges = boolOf(env, 'NOTIFY_AUTH_CHANGES', true);
  }
}

function required(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
}

function intOf(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`Environment variable ${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function boolOf(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new Error(`Environment variable ${name} must be true or false, got "${raw}"`);
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
