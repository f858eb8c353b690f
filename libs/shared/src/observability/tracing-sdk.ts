import {
  context,
  propagation,
  type TextMapPropagator,
  trace,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingConfig } from './tracing-settings';

/*
 * The OpenTelemetry SDK, loaded by tracing.ts only when tracing is on (an OTLP endpoint is
 * set): a process without it never loads the SDK, the exporter or their async context.
 */

/** What tracing needs once it runs: the SDK's tracer, the W3C propagator, the SDK's end. */
export interface TracingRuntime {
  readonly tracer: Tracer;
  readonly propagator: TextMapPropagator;
  shutdown(): Promise<void>;
}

/** The tracer's name (instrumentation scope) of every span of the service. */
const TRACER_NAME = 'pcp-service';

function samplerOf({ sampler, ratio }: TracingConfig): Sampler {
  switch (sampler) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/**
 * Registers a tracer provider for the process (the API's globals: tracer provider, the
 * AsyncLocalStorage context manager, the W3C Trace Context propagator). Spans are batched
 * to the OTLP/HTTP endpoint, or exported one by one to a test's exporter.
 */
export function startSdk(config: TracingConfig, testExporter?: SpanExporter): TracingRuntime {
  const processor = testExporter
    ? new SimpleSpanProcessor(testExporter)
    : new BatchSpanProcessor(new OTLPTraceExporter({ url: config.url, headers: config.headers }));
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.serviceName }),
    ),
    sampler: samplerOf(config),
    spanProcessors: [processor],
  });
  const propagator = new W3CTraceContextPropagator();
  provider.register({ propagator });
  return {
    tracer: provider.getTracer(TRACER_NAME),
    propagator,
    async shutdown() {
      // Exports what is batched, then frees the globals (a later start registers anew).
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
