import { type DynamicModule, type Provider, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { EnginePing } from './engine-ping.repository';
import { HealthChecks } from './health-checks.service';
import { HttpMetrics } from './http-metrics';
import { Metrics } from './metrics.service';
import { ObservabilityController } from './observability.controller';
import { QueueMetrics } from './queue-metrics.service';
import { WorkerHealthServer } from './worker-health-server';

const common: Provider[] = [Metrics, QueueMetrics, EnginePing, HealthChecks];
// Terminus logs nothing itself: HealthChecks logs a change of readiness once, at warn.
const imports = [TerminusModule.forRoot({ logger: false }), DiscoveryModule];

/**
 * The operator's view of a process: health (terminus), Prometheus metrics (the injectable
 * `Metrics` the code counts with, queue depths, process figures). Global, so any module can
 * count through `Metrics`. The api serves the routes (ObservabilityController, outside the
 * API prefix) and times every request (HttpMetrics); the worker serves the same on its own
 * small listener when WORKER_HEALTH_PORT is set.
 */
@Module({})
export class ObservabilityModule {
  static forApi(): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports,
      controllers: [ObservabilityController],
      providers: [...common, HttpMetrics],
      exports: [Metrics, HealthChecks],
    };
  }

  static forWorker(): DynamicModule {
    return {
      module: ObservabilityModule,
      global: true,
      imports,
      providers: [...common, WorkerHealthServer],
      exports: [Metrics, HealthChecks, WorkerHealthServer],
    };
  }
}
