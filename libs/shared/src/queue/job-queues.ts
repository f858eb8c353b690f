import type { Queue } from 'bull';
import { queueOf, type JobDefinition } from './job-definition';
import { JOBS_QUEUE } from './queue.constants';
import type { TenantFairQueue } from './tenant-fair-queue';

/**
 * One queue of the app: Bull's queue (the turns, plain and scheduled jobs) and the tenants'
 * fair queue beside it. A job waits in the queue its definition names (`queue`, default
 * `jobs`), so a worker can serve some kinds of work and not others (docs/scaling.md,
 * "Lifted apps": the event deliveries' own queue).
 */
export interface QueueLine {
  readonly name: string;
  readonly queue: Queue;
  readonly fair: TenantFairQueue;
}

/**
 * The queues of the app (every one its job definitions name, and `jobs`) and the ones its
 * worker serves: the producer side (JobQueue) adds to any, the JobRunner takes from the
 * served ones only.
 */
export class JobQueues {
  constructor(
    readonly lines: readonly QueueLine[],
    readonly servedNames: readonly string[],
  ) {}

  line(name: string): QueueLine {
    const line = this.lines.find((candidate) => candidate.name === name);
    if (!line) throw new Error(`Queue "${name}" is not registered in this app`);
    return line;
  }

  get served(): QueueLine[] {
    return this.lines.filter((line) => this.servedNames.includes(line.name));
  }
}

/** The queue names `jobs` wait in, `jobs` first (the leases and the dashboard use it). */
export function queueNamesOf(jobs: readonly JobDefinition<unknown>[]): string[] {
  return [...new Set([JOBS_QUEUE, ...jobs.map(queueOf)])];
}
