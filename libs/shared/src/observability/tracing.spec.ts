import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SettingsError } from '../settings/setting-spec';
import {
  annotateActiveSpan,
  currentTraceCarrier,
  exportSpansTo,
  inHttpClientSpan,
  inSpan,
  linkWrites,
  runInJobSpan,
  startTracing,
  type TraceCarrier,
  tracingConfig,
  tracingEnabled,
  withTraceCarrier,
} from './tracing';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.example:4318/' };

/** A queued job as Bull hands it to the runner (only what runInJobSpan reads). */
const job = (data: unknown) => ({ id: 7, data, attemptsMade: 0, queue: { name: 'jobs' } });

describe('Tracing settings', () => {
  it('is off without an OTLP endpoint', () => {
    expect(tracingConfig({}, 'api')).toBeUndefined();
  });

  it('sends to <base>/v1/traces, or to the traces endpoint as given, which wins', () => {
    expect(tracingConfig(ENDPOINT, 'api')).toEqual({
      url: 'http://collector.example:4318/v1/traces',
      headers: {},
      serviceName: 'pcp-api',
      sampler: 'parentbased_always_on',
      ratio: 1,
    });
    expect(
      tracingConfig(
        {
          ...ENDPOINT,
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.example/otlp',
          OTEL_EXPORTER_OTLP_HEADERS: 'x-api-key=abc%3D,tenant = ops',
          OTEL_SERVICE_NAME: 'pcp-eu',
          OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
          OTEL_TRACES_SAMPLER_ARG: '0.25',
        },
        'worker',
      ),
    ).toEqual({
      url: 'https://traces.example/otlp',
      headers: { 'x-api-key': 'abc=', tenant: 'ops' },
      serviceName: 'pcp-eu',
      sampler: 'parentbased_traceidratio',
      ratio: 0.25,
    });
    expect(
      tracingConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c/v1/traces' }, 'worker'),
    ).toMatchObject({ url: 'http://c/v1/traces', serviceName: 'pcp-worker' });
  });

  it('refuses bad values, naming each variable (the headers, a secret, masked)', () => {
    let error: unknown;
    try {
      tracingConfig(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318',
          OTEL_EXPORTER_OTLP_HEADERS: 'no-equals-sign',
          OTEL_TRACES_SAMPLER: 'sometimes',
          OTEL_TRACES_SAMPLER_ARG: '2',
        },
        'api',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SettingsError);
    expect((error as SettingsError).problems.map(({ name, value }) => [name, value])).toEqual([
      ['OTEL_EXPORTER_OTLP_ENDPOINT', 'collector:4318'],
      ['OTEL_EXPORTER_OTLP_HEADERS', '***'],
      ['OTEL_TRACES_SAMPLER', 'sometimes'],
      ['OTEL_TRACES_SAMPLER_ARG', '2'],
    ]);
  });
});

describe('Tracing off', () => {
  it('starts nothing, adds nothing to payloads, and only calls what it wraps', async () => {
    expect(await startTracing({}, 'api')).toBeUndefined();
    expect(tracingEnabled()).toBe(false);
    const payload = { clientId: 'c', profileId: 1 };
    expect(withTraceCarrier(payload)).toBe(payload);
    expect(currentTraceCarrier()).toBeUndefined();
    const answered: number[] = [];
    await expect(runInJobSpan('x', job({}), async () => 1)).resolves.toBe(1);
    await expect(inSpan('y', async () => 2)).resolves.toBe(2);
    await expect(
      inHttpClientSpan('POST webhook', { method: 'POST', url: 'http://h/' }, async (span) => {
        span.answered(204, null);
        answered.push(204);
        return 3;
      }),
    ).resolves.toBe(3);
    expect(answered).toEqual([204]);
    linkWrites([{ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }]);
    annotateActiveSpan({ a: 1 });
  });
});

describe('Tracing on (an in-memory exporter)', () => {
  const spans = new InMemorySpanExporter();
  let stop: (() => Promise<void>) | undefined;
  const finished = () => spans.getFinishedSpans();
  const named = (name: string): ReadableSpan => {
    const found = finished().filter((span) => span.name === name);
    expect(found).toHaveLength(1);
    return found[0];
  };
  const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

  beforeAll(async () => {
    exportSpansTo(spans);
    stop = await startTracing(ENDPOINT, 'worker');
  });
  afterAll(async () => {
    await stop?.();
    exportSpansTo(undefined);
  });
  beforeEach(() => spans.reset());

  it('carries the active span in a payload, and a job continues it', async () => {
    let carrier: TraceCarrier | undefined;
    let payload: { n: number; trace?: TraceCarrier } = { n: 1 };
    await inSpan('request', async () => {
      carrier = currentTraceCarrier();
      payload = withTraceCarrier(payload);
    });
    expect(payload.trace).toEqual(carrier);
    expect(carrier?.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await runInJobSpan('apply-profile-writes', job(payload), () =>
      inSpan('profile.apply', () => inSpan('profile.apply.load', async () => undefined)),
    );
    const request = named('request');
    const consumer = named('process apply-profile-writes');
    const apply = named('profile.apply');
    expect(parentOf(consumer)).toBe(request.spanContext().spanId);
    expect(parentOf(apply)).toBe(consumer.spanContext().spanId);
    expect(parentOf(named('profile.apply.load'))).toBe(apply.spanContext().spanId);
    expect(new Set(finished().map((span) => span.spanContext().traceId)).size).toBe(1);
    expect(consumer.attributes).toMatchObject({
      'messaging.destination.name': 'jobs',
      'messaging.message.id': '7',
      'pcp.job.attempt': 1,
    });
    // A payload that names its own trace keeps it; outside any span nothing is added.
    expect(withTraceCarrier({ trace: carrier })).toEqual({ trace: carrier });
    expect(withTraceCarrier({ n: 2 })).toEqual({ n: 2 });
  });

  it("links the apply to the other writes' requests, once each, not to its parent", async () => {
    const carriers: TraceCarrier[] = [];
    for (const name of ['first', 'second', 'third']) {
      await inSpan(name, async () => void carriers.push(currentTraceCarrier()!));
    }
    await runInJobSpan('apply-profile-writes', job({ trace: carriers[0] }), () =>
      inSpan('profile.apply', async () => {
        linkWrites([carriers[0], carriers[1], undefined]);
        linkWrites([carriers[1], carriers[2]]);
        annotateActiveSpan({ 'pcp.writes_applied': 3 });
      }),
    );
    const apply = named('profile.apply');
    expect(apply.links.map((link) => link.context.spanId)).toEqual([
      named('second').spanContext().spanId,
      named('third').spanContext().spanId,
    ]);
    expect(apply.attributes['pcp.writes_applied']).toBe(3);
  });

  it('records a failed job and a webhook attempt (host and port only, never the path)', async () => {
    await expect(
      runInJobSpan('event-delivery', job({}), async () => {
        await inHttpClientSpan(
          'POST webhook',
          { method: 'POST', url: 'https://hooks.example/T0/secret-path?token=x' },
          async (span) => span.answered(500, 'the endpoint answered HTTP 500'),
        );
        throw new Error('engine down');
      }),
    ).rejects.toThrow('engine down');
    const consumer = named('process event-delivery');
    expect(parentOf(consumer)).toBeUndefined();
    expect(consumer.status).toEqual({ code: 2, message: 'engine down' });
    const attempt = named('POST webhook');
    expect(attempt.attributes).toEqual({
      'http.request.method': 'POST',
      'url.scheme': 'https',
      'server.address': 'hooks.example',
      'server.port': 443,
      'http.response.status_code': 500,
      'error.type': '500',
    });
    expect(attempt.status).toEqual({ code: 2, message: 'the endpoint answered HTTP 500' });
  });

  it('stops when the last app that started it stops', async () => {
    const second = await startTracing(ENDPOINT, 'api');
    await second?.();
    await second?.();
    expect(tracingEnabled()).toBe(true);
  });
});
