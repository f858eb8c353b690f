import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import {
  ApiExceptionFilter,
  bodyBoundViolation,
  StreamedBody,
  createApiValidationPipe,
  createNestLogger,
  createRootLogger,
  enforceRequestDeadlines,
  installEntityTags,
  installLocationHeaders,
  installIdempotencyHook,
  installRequestLogging,
  installRequestTracing,
  OBSERVABILITY_PATHS,
  serializeReply,
  Settings,
  startTracing,
} from '@app/shared';
import { readFileSync } from 'node:fs';
import { installBodyParsers, installRouteBodyLimits } from './body-parsers';
import { installHttpSemantics } from './http-semantics';
import { clientError, frameworkError } from './transport-errors';
import { RequestDrain } from './request-drain';

export const API_PREFIX = 'Profiles/v4';

/**
 * What differs between the HTTP apps built from the libs (the api; the lifted decisions app,
 * apps/decisions): their root module and what their routes need of the HTTP plumbing, which
 * is the same for all (prefix, errors, body parsers and bounds, deadlines, ETag, Location,
 * idempotency, drain, logging, tracing, Swagger).
 */
export interface HttpAppSpec {
  /** The process's name in logs and traces (`api`, `decisions`). */
  name: string;
  module: DynamicModule;
  /** Routes served outside /Profiles/v4 (besides health and metrics). */
  unprefixed: string[];
  /** Routes whose bodies are forms (application/x-www-form-urlencoded). */
  formRoutes: string[];
  /** Hooks of the app's own, installed after the HTTPS check and before Nest's routes. */
  installHooks?: (fastify: FastifyInstance, settings: Settings) => void;
  /** The app's OpenAPI document, served at /Profiles/v4/docs and docs-json. */
  openApi: (app: NestFastifyApplication) => OpenAPIObject;
}

/** The request drain of each app built here (see closeHttpApp). */
const drains = new WeakMap<FastifyInstance, RequestDrain>();
/** Each app's close, once: a second signal or a test's cleanup waits for the same. */
const closing = new WeakMap<NestFastifyApplication, Promise<void>>();
/** Each traced app's end of tracing (its spans exported), after it closed. */
const tracings = new WeakMap<NestFastifyApplication, () => Promise<void>>();

/**
 * Closes an app built by createHttpApp in order: new requests are answered 503, those in
 * flight finish (up to `settings.shutdownGraceMs`), then the modules close their
 * connections. Nest's own shutdown hooks would close the modules (Redis, the engine)
 * first, failing the requests still running, so the app does not enable them: main.ts
 * calls this on SIGTERM and SIGINT, tests call it to close.
 */
export function closeHttpApp(app: NestFastifyApplication, settings: Settings): Promise<void> {
  let closed = closing.get(app);
  if (!closed) {
    const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    closed = (async () => {
      await drains.get(fastify)?.drain(settings.shutdownGraceMs);
      await app.close();
      await tracings.get(app)?.();
    })();
    closing.set(app, closed);
  }
  return closed;
}

/**
 * Builds an HTTP app (not yet listening): the Fastify adapter with the spec's content
 * types, the legacy v2 prefix, HTTPS options, the global pipe and filter, and Swagger.
 * `main.ts` of each app and the end-to-end tests use it, so tests see what runs.
 */
export async function createHttpApp(
  settings: Settings,
  spec: HttpAppSpec,
): Promise<NestFastifyApplication> {
  // Only with an OTLP endpoint (docs/operations.md, "Tracing"); off, no hook is installed.
  const stopTracing = await startTracing(settings.env, spec.name);
  try {
    const app = await buildHttpApp(settings, spec);
    if (stopTracing) tracings.set(app, stopTracing);
    return app;
  } catch (error) {
    await stopTracing?.();
    throw error;
  }
}

async function buildHttpApp(
  settings: Settings,
  spec: HttpAppSpec,
): Promise<NestFastifyApplication> {
  const https =
    settings.tlsCertFile && settings.tlsKeyFile
      ? { cert: readFileSync(settings.tlsCertFile), key: readFileSync(settings.tlsKeyFile) }
      : undefined;
  const adapter = new FastifyAdapter({
    trustProxy: settings.trustProxy,
    ...(https ? { https } : {}),
    // /Profiles/v2 is the legacy prefix with the same relative paths; the prefix itself
    // is matched case-insensitively (the spec writes both /Profiles/v4 and /profiles/v4).
    rewriteUrl: (req: { url?: string }) =>
      (req.url ?? '/').replace(/^\/profiles\/v[24](?=\/|$|\?)/i, '/Profiles/v4'),
    // A path parameter may be a double opt-in link's token (up to 400 characters, with a
    // long client id); Fastify's default of 100 refused longer ones.
    // (A router option: Fastify 5 deprecates it at the top level, FSTDEP022.)
    routerOptions: { maxParamLength: 500 },
    // What Fastify and Node refuse before any route runs, in the service's error shape.
    frameworkErrors: frameworkError,
    clientErrorHandler: clientError,
  } as ConstructorParameters<typeof FastifyAdapter>[0]);

  // Default server generics: this app serves HTTP/1.1 (with or without TLS).
  const fastify = adapter.getInstance() as unknown as FastifyInstance;
  // Before all: every request, a refused one too, gets its id (X-Request-Id) and log line.
  const logger = createRootLogger(settings, spec.name);
  installRequestLogging(fastify, logger);
  // Next (it names the request's id): each request's server span, when tracing is on.
  installRequestTracing(fastify);
  // Next: while the api shuts down, new requests get 503 before anything else runs.
  const drain = new RequestDrain();
  drain.install(fastify);
  drains.set(fastify, drain);
  installHttpSemantics(fastify, { formRoutes: spec.formRoutes });
  installBodyParsers(fastify);
  installRouteBodyLimits(fastify, settings.env);
  // Before authentication and validation: a pathological body is a 400 naming the bound.
  fastify.addHook('preValidation', (request, reply, done) => {
    // A streamed body is unread here: its reader checks what it reads.
    const unparsed = request.body === undefined || request.body instanceof StreamedBody;
    const problem = unparsed ? null : bodyBoundViolation(request.body);
    if (!problem) return done();
    void reply.status(400).send({ Message: problem });
  });
  enforceRequestDeadlines(fastify, settings);
  // JSON.stringify, except for bodies whose text a handler already knows (withKnownJson).
  fastify.setReplySerializer(serializeReply);
  // Location and Link of a `@LocationHeader` route's 201/202, from its answer; then, on the
  // bytes sent: ETag and 304 of `@EntityTagged` GETs; the answer an Idempotency-Key claimed
  // (`@ApiAuth`'s guards) is kept.
  installLocationHeaders(fastify);
  installEntityTags(fastify);
  installIdempotencyHook(fastify);
  if (settings.requireHttps) {
    // With TRUST_PROXY, request.protocol follows X-Forwarded-Proto; otherwise the socket.
    fastify.addHook('onRequest', async (request, reply) => {
      if (request.protocol !== 'https') {
        await reply.status(403).send({ Message: 'HTTPS is required' });
      }
    });
  }
  spec.installHooks?.(fastify, settings);

  const app = await NestFactory.create<NestFastifyApplication>(spec.module, adapter, {
    // JSON lines through pino at LOG_LEVEL (libs/shared/src/observability/logging.ts).
    logger: createNestLogger(logger),
    // Throw instead of exiting, so a test (or main) sees why the app did not start.
    abortOnError: false,
    // The api's own parsers (http/body-parsers.ts).
    bodyParser: false,
  });
  app.setGlobalPrefix(API_PREFIX, {
    exclude: [...spec.unprefixed, ...OBSERVABILITY_PATHS],
  });
  app.useGlobalPipes(createApiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  if (settings.corsOrigins.length) {
    app.enableCors({
      origin: settings.corsOrigins,
      exposedHeaders: [
        'Location',
        'Link',
        'Retry-After',
        'WWW-Authenticate',
        'X-Request-Id',
        'ETag',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
      ],
      maxAge: 600,
    });
  }

  // The document and its checks (openapi/openapi-document.ts), built at its first request
  // and kept: building it took a quarter to half a second of every start, of every api
  // process and every e2e suite. A document that fails its checks fails that request (and
  // `npm run openapi:write` and the OpenAPI suites, which build it), not the start.
  SwaggerModule.setup(`${API_PREFIX}/docs`, app, () => spec.openApi(app), {
    jsonDocumentUrl: `${API_PREFIX}/docs-json`,
  });
  return app;
}
