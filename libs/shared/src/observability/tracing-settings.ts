import { defineSettings } from '../settings/setting-spec';

/** Tracing's settings, read from the process's environment (tracing.ts: tracingConfig). */
export interface TracingConfig {
  /** Where spans are exported (OTLP over HTTP). */
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly serviceName: string;
  readonly sampler: TraceSamplerName;
  readonly ratio: number;
}

/** The samplers OTEL_TRACES_SAMPLER names (the OpenTelemetry SDK's standard values). */
export const TRACE_SAMPLERS = [
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
  'always_on',
  'always_off',
  'traceidratio',
] as const;
export type TraceSamplerName = (typeof TRACE_SAMPLERS)[number];

function httpUrlProblem(value: string): string | undefined {
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:' ? undefined : 'must be an http(s) URL';
  } catch {
    return 'must be an http(s) URL';
  }
}

/**
 * Tracing's variables (tracing.ts): the standard OpenTelemetry names, read by the service
 * itself and handed to the SDK, so that what start-up checks is what runs. Tracing is off
 * unless one of the two endpoints is set.
 */
export const TRACING_SETTINGS = defineSettings('tracing', [
  {
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    type: 'text',
    trim: true,
    problem: httpUrlProblem,
    meaning: 'turns tracing on: base URL of an OTLP/HTTP collector (spans go to <url>/v1/traces)',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    type: 'text',
    trim: true,
    problem: httpUrlProblem,
    meaning: 'turns tracing on: full OTLP/HTTP URL spans are sent to (wins over the base URL)',
  },
  {
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    type: 'text',
    secret: true,
    problem: (value) =>
      parseOtlpHeaders(value) ? undefined : 'must be key=value pairs, comma-separated',
    meaning:
      'headers of every export request, key=value pairs comma-separated (a collector credential)',
  },
  {
    name: 'OTEL_SERVICE_NAME',
    type: 'text',
    trim: true,
    documentedDefault: '`pcp-api` or `pcp-worker`',
    meaning: "the spans' service.name (default: pcp-api in the api, pcp-worker in the worker)",
  },
  {
    name: 'OTEL_TRACES_SAMPLER',
    type: 'text',
    default: 'parentbased_always_on',
    values: TRACE_SAMPLERS,
    meaning: 'which traces are recorded: a standard sampler name',
  },
  {
    name: 'OTEL_TRACES_SAMPLER_ARG',
    type: 'text',
    default: '1',
    trim: true,
    problem: (value) => {
      const ratio = Number(value);
      return Number.isFinite(ratio) && ratio >= 0 && ratio <= 1
        ? undefined
        : 'must be a number from 0 to 1';
    },
    meaning: 'the ratio of new traces the traceidratio samplers record (0 to 1)',
  },
] as const);

/**
 * `OTEL_EXPORTER_OTLP_HEADERS` as the specification writes it (`k1=v1,k2=v2`, values
 * percent-encoded), or null when it is not that.
 */
export function parseOtlpHeaders(value: string): Record<string, string> | null {
  const headers: Record<string, string> = {};
  for (const pair of value.split(',')) {
    if (!pair.trim()) continue;
    const equals = pair.indexOf('=');
    if (equals <= 0) return null;
    const key = pair.slice(0, equals).trim();
    let decoded: string;
    try {
      decoded = decodeURIComponent(pair.slice(equals + 1).trim());
    } catch {
      return null;
    }
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key)) return null;
    headers[key] = decoded;
  }
  return headers;
}
