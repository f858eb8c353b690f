import {
  type Attributes,
  type Context,
  context,
  createContextKey,
  defaultTextMapGetter,
  defaultTextMapSetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanOptions,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routeOptionsOf } from '../http/route-config';
import { EnvReader } from '../settings/env-reader';
import { requestIdOfRequest } from './logging';
import { OBSERVABILITY_PATHS } from './observability-paths';
// Types only: the SDK itself is loaded when tracing starts.
import type { TracingRuntime } from './tracing-sdk';
import {
  parseOtlpHeaders,
  type TraceSamplerName,
  type TracingConfig,
  TRACING_SETTINGS,
} from './tracing-settings';

/*
 * OpenTelemetry tracing of a write from its request to its webhook deliveries
 * (docs/operations.md, "Tracing"). Off unless an OTLP endpoint is set: then no SDK is
 * loaded, no hook is installed and no async context exists, and every helper here returns
 * after one check of `state`, so the hot paths pay nothing (an async context would cost a
 * fifth of a GET's CPU). On, spans cross the queue as W3C Trace Context (`traceparent`,
 * `tracestate`) in the job's payload (`trace`) and in each write's record.
 */

/** A span's W3C Trace Context, as a job's payload and a write's record carry it. */
export interface TraceCarrier {
  traceparent: string;
  tracestate?: string;
}

/** A job payload that may carry the context of the span that queued it (JobQueue adds it). */
export interface TracedPayload {
  trace?: TraceCarrier;
}

/** Set while tracing runs in this process (undefined: off). */
let state: TracingRuntime | undefined;
let starting: Promise<TracingRuntime> | undefined;
/** Apps of the process that started tracing and have not stopped it (tests run both). */
let users = 0;
let testExporter: SpanExporter | undefined;

/**
 * The exporter of tracing started from now on, instead of OTLP over HTTP (tests: an
 * InMemorySpanExporter, exported as each span ends). Tracing still starts only when an
 * endpoint is set, so a test can show that nothing is recorded without one.
 */
export function exportSpansTo(exporter: SpanExporter | undefined): void {
  testExporter = exporter;
}

/** Tracing's settings from `env`; undefined when no endpoint is set (tracing is off). */
export function tracingConfig(
  env: NodeJS.ProcessEnv,
  processName: string,
): TracingConfig | undefined {
  const read = new EnvReader(env).read(TRACING_SETTINGS);
  const base = read.OTEL_EXPORTER_OTLP_ENDPOINT;
  const url =
    read.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? (base && `${base.replace(/\/+$/, '')}/v1/traces`);
  if (!url) return undefined;
  const headers = read.OTEL_EXPORTER_OTLP_HEADERS;
  return {
    url,
    headers: (headers && parseOtlpHeaders(headers)) || {},
    serviceName: read.OTEL_SERVICE_NAME ?? `pcp-${processName}`,
    sampler: read.OTEL_TRACES_SAMPLER as TraceSamplerName,
    ratio: Number(read.OTEL_TRACES_SAMPLER_ARG),
  };
}

/**
 * Starts tracing in this process when an OTLP endpoint is configured: the SDK is loaded
 * only then. Resolves to the app's stop (call it once the app closed), or undefined when
 * tracing is off. The api and the worker of one process (tests) share one SDK, ended when
 * both stopped.
 */
export async function startTracing(
  env: NodeJS.ProcessEnv,
  processName: string,
): Promise<(() => Promise<void>) | undefined> {
  const config = tracingConfig(env, processName);
  if (!config) return undefined;
  users++;
  const exporter = testExporter;
  starting ??= import('./tracing-sdk').then((sdk) => sdk.startSdk(config, exporter));
  state = await starting;
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    if (--users > 0) return;
    const ending = state;
    state = undefined;
    starting = undefined;
    await ending?.shutdown();
  };
}

/** Whether this process records spans. */
export function tracingEnabled(): boolean {
  return state !== undefined;
}

/** The active span's context as a carrier; undefined when off or outside any span. */
export function currentTraceCarrier(): TraceCarrier | undefined {
  if (!state) return undefined;
  const carrier: Partial<TraceCarrier> = {};
  state.propagator.inject(context.active(), carrier, defaultTextMapSetter);
  return carrier.traceparent ? (carrier as TraceCarrier) : undefined;
}

/**
 * `payload` with the active span's context as `trace` (JobQueue, for every job), so the
 * job's span continues the trace; the payload itself when off or outside any span.
 */
export function withTraceCarrier<P>(payload: P): P {
  if (!state || typeof payload !== 'object' || payload === null || 'trace' in payload) {
    return payload;
  }
  const carrier = currentTraceCarrier();
  return carrier ? { ...payload, trace: carrier } : payload;
}

/** The carrier a job's payload holds, if it holds a well-formed one. */
function carrierOf(data: unknown): TraceCarrier | undefined {
  const carrier = (data as TracedPayload | null | undefined)?.trace;
  return typeof carrier?.traceparent === 'string' ? carrier : undefined;
}

/** The traceparent of the job's queuing span, kept in the job's context (see linkWrites). */
const JOB_PARENT = createContextKey('pcp job parent');

/** What runInJobSpan reads of a queued job (structural: this module knows no Bull). */
export interface TracedJobRun {
  readonly id: string | number;
  readonly data: unknown;
  readonly attemptsMade: number;
  readonly queue: { readonly name: string };
}

/**
 * Runs a job's handler in a consumer span `process <job name>`, the child of the span that
 * queued it (its payload's `trace`), or a new trace's root (scheduled runs, the sweeper's
 * jobs). Off: `fn()` and nothing else.
 */
export function runInJobSpan<T>(name: string, run: TracedJobRun, fn: () => Promise<T>): Promise<T> {
  if (!state) return fn();
  const carrier = carrierOf(run.data);
  const parent = carrier
    ? state.propagator
        .extract(ROOT_CONTEXT, carrier, defaultTextMapGetter)
        .setValue(JOB_PARENT, carrier.traceparent)
    : ROOT_CONTEXT;
  return spanned(
    state,
    `process ${name}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'bull',
        'messaging.operation.type': 'process',
        'messaging.destination.name': run.queue.name,
        'messaging.message.id': String(run.id),
        'pcp.job.name': name,
        'pcp.job.attempt': run.attemptsMade + 1,
      },
    },
    parent,
    fn,
  );
}

/**
 * Runs `fn` in an internal span `name`, a child of the active span (the apply and its
 * stages). Off: `fn()`.
 */
export function inSpan<T>(name: string, fn: () => Promise<T>, attributes?: Attributes): Promise<T> {
  if (!state) return fn();
  return spanned(state, name, { attributes }, context.active(), fn);
}

/** Sets attributes on the active span (a count known at the end); off: nothing. */
export function annotateActiveSpan(attributes: Attributes): void {
  if (!state) return;
  trace.getActiveSpan()?.setAttributes(attributes);
}

/** The links the active spans took already, by traceparent (a span links each one once). */
const linked = new WeakMap<Span, Set<string>>();

/**
 * Links the active span (the apply) to the spans that accepted the writes it applies, all
 * but the one its job continues: one job applies the writes of several requests (a profile
 * has one queued job at a time), and only one can be its parent. Off: nothing.
 */
export function linkWrites(carriers: readonly (TraceCarrier | undefined)[]): void {
  if (!state) return;
  const active = context.active();
  const span = trace.getSpan(active);
  if (!span?.isRecording()) return;
  const parent = active.getValue(JOB_PARENT);
  let seen = linked.get(span);
  if (!seen) linked.set(span, (seen = new Set()));
  for (const carrier of carriers) {
    if (!carrier || carrier.traceparent === parent || seen.has(carrier.traceparent)) continue;
    seen.add(carrier.traceparent);
    const linkedContext = trace.getSpanContext(
      state.propagator.extract(ROOT_CONTEXT, carrier, defaultTextMapGetter),
    );
    if (linkedContext)
      span.addLink({ context: linkedContext, attributes: { 'pcp.link': 'write' } });
  }
}

/** What the span of an outgoing HTTP request is told of its outcome. */
export interface HttpClientSpan {
  /** The server answered with this status; `problem`: the caller counts it as failed. */
  answered(status: number, problem: string | null): void;
  /** No answer: what went wrong. */
  failed(problem: string): void;
}

const UNTRACED_REQUEST: HttpClientSpan = { answered: () => undefined, failed: () => undefined };

/**
 * Runs an outgoing HTTP request in a client span `name` (a webhook delivery attempt). The
 * target's scheme, host and port are recorded, never its path or query: a subscriber's
 * URL may hold a credential there. Off: `fn` with a span that records nothing.
 */
export function inHttpClientSpan<T>(
  name: string,
  request: { method: string; url: string; attributes?: Attributes },
  fn: (span: HttpClientSpan) => Promise<T>,
): Promise<T> {
  if (!state) return fn(UNTRACED_REQUEST);
  let target: Attributes = {};
  try {
    const url = new URL(request.url);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    target = {
      [ATTR_URL_SCHEME]: url.protocol.replace(/:$/, ''),
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: port,
    };
  } catch {
    // An unparsable URL fails in the request itself; the span says so.
  }
  const options: SpanOptions = {
    kind: SpanKind.CLIENT,
    attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, ...target, ...request.attributes },
  };
  return spanned(state, name, options, context.active(), (span) =>
    fn({
      answered(status, problem) {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        if (problem !== null) {
          span.setAttribute(ATTR_ERROR_TYPE, String(status));
          span.setStatus({ code: SpanStatusCode.ERROR, message: problem });
        }
      },
      failed(problem) {
        span.setAttribute(ATTR_ERROR_TYPE, 'no answer');
        span.setStatus({ code: SpanStatusCode.ERROR, message: problem });
      },
    }),
  );
}

/** Runs `fn` in a new span, active for it; an error thrown is recorded on the span. */
function spanned<T>(
  runtime: TracingRuntime,
  name: string,
  options: SpanOptions,
  parent: Context,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const span = runtime.tracer.startSpan(name, options, parent);
  return context.with(trace.setSpan(parent, span), async () => {
    try {
      return await fn(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({
        code: SpanStatusCode.ERROR,
        message: error instanceof Error ? error.message : String(error),
      });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The request's span, kept on the request for its completion. */
const REQUEST_SPAN = Symbol('request-span');
type TracedRequest = FastifyRequest & { [REQUEST_SPAN]?: Span };
/** Routes not traced: probes and scrapes come every few seconds (nor are they logged). */
const UNTRACED_ROUTES = new Set(OBSERVABILITY_PATHS.map((path) => `/${path}`));

/**
 * The api's server span of each request, `<METHOD> <route template>`: installed after the
 * request logging (it names the request's id) and only when tracing runs, so a GET pays
 * nothing when it is off. The span is active while the request runs (the acceptance of a
 * write queues its job inside it), with the request's id (`pcp.request_id`, the `reqId` of
 * the logs and the X-Request-Id answer header), method, route and status. An incoming
 * `traceparent` is continued.
 */
export function installRequestTracing(fastify: FastifyInstance): void {
  const runtime = state;
  if (!runtime) return;
  fastify.addHook('onRequest', (request: TracedRequest, _reply, done) => {
    const route = routeOptionsOf(request).url;
    if (route !== undefined && UNTRACED_ROUTES.has(route)) return done();
    const parent = runtime.propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const span = runtime.tracer.startSpan(
      route ? `${request.method} ${route}` : request.method,
      {
        kind: SpanKind.SERVER,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: request.method,
          [ATTR_URL_SCHEME]: request.protocol,
          ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
          'pcp.request_id': requestIdOfRequest(request),
        },
      },
      parent,
    );
    request[REQUEST_SPAN] = span;
    // Fastify 5 keeps this context across reading the body (see installRequestLogging).
    context.with(trace.setSpan(parent, span), done);
  });
  fastify.addHook('onResponse', (request: TracedRequest, reply, done) => {
    endRequestSpan(request, reply.statusCode);
    done();
  });
  fastify.addHook('onRequestAbort', (request: TracedRequest, done) => {
    endRequestSpan(request, undefined);
    done();
  });
}

function endRequestSpan(request: TracedRequest, status: number | undefined): void {
  const span = request[REQUEST_SPAN];
  if (!span) return;
  request[REQUEST_SPAN] = undefined;
  const clientId = (request.params as { clientId?: unknown } | undefined)?.clientId;
  if (typeof clientId === 'string') span.setAttribute('pcp.client_id', clientId);
  if (status === undefined) {
    span.setAttribute(ATTR_ERROR_TYPE, 'aborted');
  } else {
    span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    // A server's span fails on a 5xx only: a 4xx is the client's (semantic conventions).
    if (status >= 500) {
      span.setAttribute(ATTR_ERROR_TYPE, String(status));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
  }
  span.end();
}
