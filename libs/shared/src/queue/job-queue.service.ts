import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { randomUUID } from 'node:crypto';
import { withTraceCarrier } from '../observability/tracing';
import { isScheduled, type JobDefinition } from './job-definition';
import {
  DEFAULT_JOB_OPTIONS,
  type JobLane,
  JOBS_QUEUE,
  SCHEDULED_JOB_OPTIONS,
} from './queue.constants';
import {
  type FairItem,
  TENANT_TURN_JOB,
  TenantFairQueue,
  type TenantTurnPayload,
} from './tenant-fair-queue';

/** The producer side of our queue: the only place that knows it is Bull. */
@Injectable()
export class JobQueue {
  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    private readonly fair: TenantFairQueue,
  ) {}

  /**
   * Adds a job of `job`'s definition. Enqueuing a scheduled job runs it once now, besides its schedule
   * (tests do this instead of waiting for the interval). While Redis is unreachable the client would hold the command until it
   * reconnects; `timeoutMs` bounds that wait (the caller decides what a late enqueue means).
   * `delayMs`: the job becomes runnable only after that time. A tenant's job (its
   * definition names the tenant) waits in the tenant's fair queue, in the weight class
   * `lane` (default interactive); a delayed one waits in Bull until it is due and then runs
   * as the next turn.
   */
  async enqueue<P>(
    job: JobDefinition<P>,
    payload: P,
    options: { timeoutMs?: number; delayMs?: number; lane?: JobLane } = {},
  ): Promise<void> {
    const { name } = job;
    if (options.timeoutMs !== undefined && this.queue.client.status !== 'ready') {
      // Disconnected: the command would only wait in the client's queue until the timeout.
      throw new Error(`enqueue of ${name}: Redis is not connected`);
    }
    // With tracing on, the payload carries the queuing span's context (`trace`).
    const traced = withTraceCarrier(payload);
    const added = job.tenantOf
      ? this.enqueueFair(
          {
            id: randomUUID(),
            job: name,
            tenant: job.tenantOf(traced),
            lane: options.lane ?? 'interactive',
            payload: traced,
          },
          options.delayMs,
        )
      : this.queue.add(name, traced, {
          ...(isScheduled(job) ? SCHEDULED_JOB_OPTIONS : DEFAULT_JOB_OPTIONS),
          ...(options.delayMs ? { delay: options.delayMs } : {}),
        });
    if (options.timeoutMs === undefined) {
      await added;
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`enqueue of ${name} took over ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
    });
    try {
      await Promise.race([added, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The item into its tenant's queue, then a turn for it into Bull. A delayed item rides in
   * its own turn (it is one profile's retry, not new work to share out). When the turn cannot
   * be added the item is taken out again, so that an error means "not queued".
   */
  private async enqueueFair(item: FairItem, delayMs: number | undefined): Promise<void> {
    if (delayMs) {
      const turn: TenantTurnPayload = { item };
      await this.queue.add(TENANT_TURN_JOB, turn, { ...DEFAULT_JOB_OPTIONS, delay: delayMs });
      return;
    }
    await this.fair.push(item);
    try {
      await this.addTurns(1);
    } catch (error) {
      await this.fair.remove(item).catch(() => undefined);
      throw error;
    }
  }

  /** `count` turns, each taking the ring's next item when it runs. */
  async addTurns(count: number): Promise<void> {
    const turn: TenantTurnPayload = {};
    if (count === 1) {
      await this.queue.add(TENANT_TURN_JOB, turn, DEFAULT_JOB_OPTIONS);
      return;
    }
    await this.queue.addBulk(
      Array.from({ length: count }, () => ({
        name: TENANT_TURN_JOB,
        data: turn,
        opts: DEFAULT_JOB_OPTIONS,
      })),
    );
  }
}
