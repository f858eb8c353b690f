import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { withTraceCarrier } from '../observability/tracing';
import { isScheduled, type JobDefinition, queueOf } from './job-definition';
import { JobQueues, type QueueLine } from './job-queues';
import {
  DEFAULT_JOB_OPTIONS,
  type JobLane,
  JOBS_QUEUE,
  SCHEDULED_JOB_OPTIONS,
} from './queue.constants';
import { type FairItem, TENANT_TURN_JOB, type TenantTurnPayload } from './tenant-fair-queue';

/** The producer side of our queues: the only place that knows they are Bull's. */
@Injectable()
export class JobQueue {
  constructor(private readonly queues: JobQueues) {}

  /**
   * Adds a job of `job`'s definition. Enqueuing a scheduled job runs it once now, besides its schedule
   * (tests do this instead of waiting for the interval). While Redis is unreachable the client would hold the command until it
   * reconnects; `timeoutMs` bounds that wait (the caller decides what a late enqueue means).
   * `delayMs`: the job becomes runnable only after that time. A tenant's job (its
   * definition names the tenant) waits in the tenant's fair queue, in the weight class
   * `lane` (default interactive); a delayed one waits in Bull until it is due and then runs
   * as the next turn. The job goes to the queue its definition names (`jobs` by default).
   */
  async enqueue<P>(
    job: JobDefinition<P>,
    payload: P,
    options: { timeoutMs?: number; delayMs?: number; lane?: JobLane } = {},
  ): Promise<void> {
    const { name } = job;
    const line = this.queues.line(queueOf(job));
    if (options.timeoutMs !== undefined && line.queue.client.status !== 'ready') {
      // Disconnected: the command would only wait in the client's queue until the timeout.
      throw new Error(`enqueue of ${name}: Redis is not connected`);
    }
    // With tracing on, the payload carries the queuing span's context (`trace`).
    const traced = withTraceCarrier(payload);
    const added = job.tenantOf
      ? this.enqueueFair(
          line,
          {
            id: randomUUID(),
            job: name,
            tenant: job.tenantOf(traced),
            lane: options.lane ?? 'interactive',
            payload: traced,
          },
          options.delayMs,
        )
      : line.queue.add(name, traced, {
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
  private async enqueueFair(
    { name, queue, fair }: QueueLine,
    item: FairItem,
    delayMs: number | undefined,
  ): Promise<void> {
    if (delayMs) {
      const turn: TenantTurnPayload = { item };
      await queue.add(TENANT_TURN_JOB, turn, { ...DEFAULT_JOB_OPTIONS, delay: delayMs });
      return;
    }
    await fair.push(item);
    try {
      await this.addTurns(1, name);
    } catch (error) {
      await fair.remove(item).catch(() => undefined);
      throw error;
    }
  }

  /** `count` turns of the queue `queueName`, each taking its ring's next item when it runs. */
  async addTurns(count: number, queueName: string = JOBS_QUEUE): Promise<void> {
    const { queue } = this.queues.line(queueName);
    const turn: TenantTurnPayload = {};
    if (count === 1) {
      await queue.add(TENANT_TURN_JOB, turn, DEFAULT_JOB_OPTIONS);
      return;
    }
    await queue.addBulk(
      Array.from({ length: count }, () => ({
        name: TENANT_TURN_JOB,
        data: turn,
        opts: DEFAULT_JOB_OPTIONS,
      })),
    );
  }
}
