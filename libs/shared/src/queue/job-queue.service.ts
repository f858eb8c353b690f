import { InjectQueue } from '@nestjs/bull';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bull';
import { withTraceCarrier } from '../observability/tracing';
import { isScheduled, type JobDefinition } from './job-definition';
import {
  BULK_JOBS_QUEUE,
  DEFAULT_JOB_OPTIONS,
  type JobLane,
  JOBS_QUEUE,
  SCHEDULED_JOB_OPTIONS,
} from './queue.constants';

/** The producer side of our queue: the only place that knows it is Bull. */
@Injectable()
export class JobQueue {
  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    @InjectQueue(BULK_JOBS_QUEUE) private readonly bulk: Queue,
  ) {}

  /**
   * Adds a job of `job`'s definition. Enqueuing a scheduled job runs it once now, besides its schedule
   * (tests do this instead of waiting for the interval). While Redis is unreachable the client would hold the command until it
   * reconnects; `timeoutMs` bounds that wait (the caller decides what a late enqueue means).
   * `delayMs`: the job becomes runnable only after that time. `lane: 'bulk'` puts a
   * profile-write job in the background lane (BULK_JOBS_QUEUE).
   */
  async enqueue<P>(
    job: JobDefinition<P>,
    payload: P,
    options: { timeoutMs?: number; delayMs?: number; lane?: JobLane } = {},
  ): Promise<void> {
    const { name } = job;
    const queue = options.lane === 'bulk' && job.lanes === 'both' ? this.bulk : this.queue;
    if (options.timeoutMs !== undefined && queue.client.status !== 'ready') {
      // Disconnected: the command would only wait in the client's queue until the timeout.
      throw new Error(`enqueue of ${name}: Redis is not connected`);
    }
    const jobOptions = isScheduled(job) ? SCHEDULED_JOB_OPTIONS : DEFAULT_JOB_OPTIONS;
    // With tracing on, the payload carries the queuing span's context (`trace`).
    const added = queue.add(name, withTraceCarrier(payload), {
      ...jobOptions,
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
}
