import type { LoggerService } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Logger as NestPinoLogger, PinoLogger } from 'nestjs-pino';
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino, { type DestinationStream, type Level, type LoggerOptions } from 'pino';
import type { Settings } from '../settings/settings';

/*
 * Structured JSON logs (pino) for both processes: one JSON object a line on stdout, with the
 * process name, the Nest context, and in the api the request id of the request that logged
 * it. LOG_LEVEL keeps its Nest names: error, warn, log (pino's info), debug, verbose (trace).
 */

const PINO_LEVELS: Record<Settings['logLevels'][number], Level> = {
  error: 'error',
  warn: 'warn',
  log: 'info',
  debug: 'debug',
  verbose: 'trace',
};

/**
 * Never written to a log, whatever logs them: credentials in headers, the token endpoint's
 * fields, tokens, the JWT key. Request bodies are never logged at all (the request
 * serializer keeps none), so a token request's client_secret has no path to the log;
 * these paths are the second line.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["proxy-authorization"]',
  'req.headers["x-api-key"]',
  'req.body',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'authorization',
  'cookie',
  ...[
    'client_secret',
    'clientSecret',
    'oauthClientSecret',
    'apiHashKey',
    'password',
    'access_token',
    'accessToken',
    'refresh_token',
    'id_token',
    'token',
    'jwtSecret',
    'JWT_SECRET',
    'secret',
  ].flatMap((key) => [key, `*.${key}`]),
  'env.JWT_SECRET',
  '*.env.JWT_SECRET',
];

/** Query parameters whose values are masked in logged URLs. */
const SECRET_PARAMETER = /secret|password|passwd|token|key|signature|credential|code|auth/i;

let destination: DestinationStream | undefined;

/**
 * Where the loggers created from now on write; undefined: stdout (the default). For tests,
 * which capture a run's log to read it (and keep it off the console).
 */
export function redirectLogs(stream: DestinationStream | undefined): void {
  destination = stream;
}

/** The process's root logger at LOG_LEVEL; `name` says which process wrote a line. */
export function createRootLogger(settings: Pick<Settings, 'logLevels'>, name: string): pino.Logger {
  const options: LoggerOptions = {
    name,
    level: PINO_LEVELS[settings.logLevels[settings.logLevels.length - 1]],
    redact: { paths: REDACTED_PATHS, censor: '[Redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * nestjs-pino's Nest logger over `root`: Nest's own lines and every `new Logger(context)` of
 * the code go to pino with their `context`; inside a request, through the request's child
 * logger (so they carry its `reqId`), else through `root`. Passed to NestFactory as `logger`,
 * so even the start's lines are JSON.
 */
export function createNestLogger(root: pino.Logger): LoggerService {
  return new NestPinoLogger(new RequestScopedPinoLogger(root), {});
}

/** The request being handled: its id, and its child logger once something logs. */
class RequestLogContext {
  private child?: pino.Logger;

  constructor(
    private readonly root: pino.Logger,
    readonly reqId: string,
    readonly startedAt: number,
  ) {}

  /** Made on first use: most requests log nothing but their completion line. */
  get logger(): pino.Logger {
    return (this.child ??= this.root.child({ reqId: this.reqId }));
  }
}

const requestContext = new AsyncLocalStorage<RequestLogContext>();
/** The context on the request itself, for its completion line (outside the async context). */
const LOG_CONTEXT = Symbol('request-log-context');
type LoggedRequest = FastifyRequest & { [LOG_CONTEXT]?: RequestLogContext };

/** PinoLogger with its own root (nestjs-pino keeps the first one of the process otherwise). */
class RequestScopedPinoLogger extends PinoLogger {
  constructor(private readonly root: pino.Logger) {
    super({ pinoHttp: { logger: root } });
  }

  override get logger(): pino.Logger {
    return requestContext.getStore()?.logger ?? this.root;
  }
}

/** The id installRequestLogging gave a request (undefined before its hook ran). */
export function requestIdOfRequest(request: FastifyRequest): string | undefined {
  return (request as LoggedRequest)[LOG_CONTEXT]?.reqId;
}

/** A request id a client may choose: up to 128 of [A-Za-z0-9._-]; anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request's id: the client's `X-Request-Id` when sane, else a new UUID. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}

/** The URL as logged: the values of parameters that may carry a secret are masked. */
export function loggedUrl(url: string | undefined): string {
  if (!url) return '';
  const query = url.indexOf('?');
  if (query < 0) return url;
  const parameters = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return equals >= 0 && SECRET_PARAMETER.test(decoded) ? `${name}=[Redacted]` : pair;
    });
  return `${url.slice(0, query)}?${parameters.join('&')}`;
}

/** Requests not logged one by one: probes and scrapes come every few seconds. */
const QUIET_PATHS = /^\/(health\/(live|ready)|metrics)\/?(\?|$)/;

/**
 * The api's request logging, as the first Fastify hook so every request gets it, those
 * refused before any route included:
 * - its id (`requestIdOf` the incoming X-Request-Id), echoed in the `X-Request-Id` answer
 *   header, on its completion line and on the error line of a request that fails;
 * - one line when it is answered: method, URL (secret-looking query values masked), status
 *   and time; `info`, or `warn` for a 5xx. No headers but the user agent, never a body.
 * At LOG_LEVEL debug or verbose, every line logged while it runs carries `reqId` too: the
 * request runs in an async context (Fastify 5 keeps it across reading a body;
 * logging.spec.ts checks it with a body that arrives after the headers). Only then, because
 * an async context costs every promise Node 20's async hooks: a fifth of a profile GET's
 * CPU (bench). Written here rather than with pino-http, which made a child logger (and
 * its redaction) for every request: a tenth of a GET's CPU.
 */
export function installRequestLogging(fastify: FastifyInstance, root: pino.Logger): void {
  const bindLines = root.isLevelEnabled('debug');
  fastify.addHook('onRequest', (request: LoggedRequest, reply, done) => {
    const context = new RequestLogContext(
      root,
      requestIdOf(request.headers['x-request-id']),
      performance.now(),
    );
    request[LOG_CONTEXT] = context;
    void reply.header('X-Request-Id', context.reqId);
    if (bindLines) requestContext.run(context, done);
    else done();
  });
  fastify.addHook('onResponse', (request: LoggedRequest, reply, done) => {
    const context = request[LOG_CONTEXT];
    const statusCode = reply.statusCode;
    const level = statusCode >= 500 ? 'warn' : 'info';
    if (context && root.isLevelEnabled(level) && !QUIET_PATHS.test(request.url)) {
      const responseTime = Math.round(performance.now() - context.startedAt);
      const url = loggedUrl(request.raw.url);
      root[level](
        {
          reqId: context.reqId,
          req: { method: request.method, url, userAgent: request.headers['user-agent'] },
          res: { statusCode },
          responseTime,
        },
        `${request.method} ${url} ${statusCode} ${responseTime} ms`,
      );
    }
    done();
  });
}
