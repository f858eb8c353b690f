import { Injectable } from '@nestjs/common';
import { Counter, Histogram, Registry } from 'prom-client';
import { processMetrics } from './process-metrics';

/** Outcomes of one scheduled job run (as recorded in `job_runs`). */
export type ScheduledRunOutcome = 'ok' | 'failed' | 'skipped';

/**
 * The application's Prometheus metrics. Code that counts something calls a method here
 * (`writeApplied`, `scheduledRun`...); only this folder knows prom-client. One registry per
 * application (an api and its workers may share a process in tests), merged at scrape time
 * with the process's default metrics (process-metrics.ts).
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from a request arriving to its answer being sent, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
    // Up to the longest a request may take: SYNC_WRITE_TIMEOUT_MS plus REQUEST_DEADLINE_MS.
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers: [this.registry],
  });

  private readonly writesApplied = new Counter({
    name: 'pcp_profile_writes_applied_total',
    help: 'Profile writes the worker applied, by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  private readonly writesFailed = new Counter({
    name: 'pcp_profile_writes_failed_total',
    help: 'Profile writes the worker recorded as failed (refused, or given up after MAX_WRITE_ATTEMPTS), by kind',
    labelNames: ['kind'],
    registers: [this.registry],
  });

  private readonly scheduledRuns = new Counter({
    name: 'pcp_scheduled_job_runs_total',
    help: 'Runs of the scheduled jobs, by job and outcome (ok, failed, skipped)',
    labelNames: ['job', 'outcome'],
    registers: [this.registry],
  });

  private readonly unreplicatedWrites = new Counter({
    name: 'pcp_read_model_unreplicated_writes_total',
    help: 'Accepted writes whose record in the read model fewer than READ_MODEL_WAIT_REPLICAS replicas acknowledged within READ_MODEL_WAIT_TIMEOUT_MS (a failover then may lose it: GET could answer Complete until the write applies)',
    registers: [this.registry],
  });

  /** One answered HTTP request; `route` is the route template, never the concrete path. */
  httpRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpDuration.observe({ method, route, status: String(status) }, seconds);
  }

  writeApplied(kind: string): void {
    this.writesApplied.inc({ kind });
  }

  writeFailed(kind: string): void {
    this.writesFailed.inc({ kind });
  }

  unreplicatedWrite(): void {
    this.unreplicatedWrites.inc();
  }

  scheduledRun(job: string, outcome: ScheduledRunOutcome): void {
    this.scheduledRuns.inc({ job, outcome });
  }

  /** The exposition text of this application's and the process's metrics. */
  async render(): Promise<{ contentType: string; body: string }> {
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { contentType: merged.contentType, body: await merged.metrics() };
  }
}
