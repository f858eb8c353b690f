import { getQueueToken } from '@nestjs/bull';
import { Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { Job, Queue } from 'bull';
import { Gauge } from 'prom-client';
import { TenantFairQueue } from '../queue/tenant-fair-queue';
import { Metrics } from './metrics.service';
import { recordDependencyError } from './process-metrics';

/** The job states counted per queue. */
const STATES = ['waiting', 'active', 'delayed', 'failed', 'paused'] as const;
/** A scrape waits this long for the queue counts, then leaves them out (Redis is stalled). */
const COLLECT_TIMEOUT_MS = 1000;

interface QueueFigures {
  counts: Record<(typeof STATES)[number], number>;
  oldestWaitingSeconds: number;
}

/**
 * Queue depth per Bull queue, read from Redis when /metrics is scraped: jobs by state and the
 * age of the oldest job waiting to run. The queues are the ones registered in this
 * application (BullModule.registerQueue: today `jobs`), found by their
 * provider tokens, so a queue added later is counted without a change here.
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  private queues: Queue[] = [];
  /** One read of Redis serves both gauges of a scrape. */
  private pending?: Promise<Map<string, QueueFigures> | undefined>;

  constructor(
    metrics: Metrics,
    private readonly discovery: DiscoveryService,
    @Optional() private readonly fair?: TenantFairQueue,
  ) {
    const figures = () => this.figures();
    const fairDepth = () => this.fairDepth();
    new Gauge({
      name: 'pcp_queue_jobs',
      help: 'Jobs in each Bull queue by state (waiting, active, delayed, failed, paused), read at scrape time',
      labelNames: ['queue', 'state'],
      registers: [metrics.registry],
      async collect() {
        const all = await figures();
        this.reset();
        for (const [queue, { counts }] of all ?? []) {
          for (const state of STATES) this.set({ queue, state }, counts[state]);
        }
      },
    });
    new Gauge({
      name: 'pcp_queue_oldest_waiting_job_age_seconds',
      help: 'Age of the oldest job waiting to run in each Bull queue (since it was added or its delay ended); 0 when none waits',
      labelNames: ['queue'],
      registers: [metrics.registry],
      async collect() {
        const all = await figures();
        this.reset();
        for (const [queue, { oldestWaitingSeconds }] of all ?? []) {
          this.set({ queue }, oldestWaitingSeconds);
        }
      },
    });
    new Gauge({
      name: 'pcp_tenant_queue_items',
      help: "Items waiting in the tenants' fair queue by class (interactive, bulk), and the tenants with work (what=items|tenants), read at scrape time",
      labelNames: ['lane', 'what'],
      registers: [metrics.registry],
      async collect() {
        const depth = await fairDepth();
        this.reset();
        if (!depth) return;
        for (const lane of ['interactive', 'bulk'] as const) {
          this.set({ lane, what: 'items' }, depth[lane].items);
          this.set({ lane, what: 'tenants' }, depth[lane].entries);
        }
      },
    });
  }

  onModuleInit(): void {
    const prefix = getQueueToken('').replace(/default$/, '');
    this.queues = this.discovery
      .getProviders()
      .filter((wrapper) => typeof wrapper.token === 'string' && wrapper.token.startsWith(prefix))
      .map((wrapper) => wrapper.instance as Queue)
      .filter((queue) => queue && typeof queue.getJobCounts === 'function');
  }

  /** The names of the queues counted. */
  get queueNames(): string[] {
    return this.queues.map((queue) => queue.name);
  }

  /** The fair queue's depth, or undefined (no fair queue here, or Redis did not answer in time). */
  private async fairDepth(): Promise<Awaited<ReturnType<TenantFairQueue['depth']>> | undefined> {
    if (!this.fair) return undefined;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), COLLECT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        this.fair.depth().catch((error: unknown) => {
          recordDependencyError(error);
          return undefined;
        }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private figures(): Promise<Map<string, QueueFigures> | undefined> {
    this.pending ??= this.read().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async read(): Promise<Map<string, QueueFigures> | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), COLLECT_TIMEOUT_MS);
    });
    const now = Date.now();
    const reading = Promise.all(
      this.queues.map(async (queue) => {
        const [counts, oldest] = await Promise.all([
          queue.getJobCounts() as unknown as Promise<Record<string, number>>,
          // The next job to run of each list (wait, and paused while the queue is paused).
          queue.getWaiting(0, 0),
        ]);
        const readyAt = (job: Job | null) =>
          job ? job.timestamp + ((job as Job & { delay?: number }).delay ?? 0) : now;
        const since = Math.min(now, ...oldest.map(readyAt));
        const figures: QueueFigures = {
          counts: Object.fromEntries(
            STATES.map((state) => [state, counts[state] ?? 0]),
          ) as QueueFigures['counts'],
          oldestWaitingSeconds: Math.max(0, (now - since) / 1000),
        };
        return [queue.name, figures] as const;
      }),
    ).then(
      (entries) => new Map(entries),
      (error: unknown) => {
        recordDependencyError(error);
        return undefined;
      },
    );
    try {
      return await Promise.race([reading, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
