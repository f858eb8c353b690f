import { Injectable } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Job, Queue } from 'bull';
import type { Settings } from '../settings/settings';
import { defineJob, defineScheduledJob, type JobDefinition } from './job-definition';
import { HandlesJob } from './job-handler.decorator';
import type { JobQueue } from './job-queue.service';
import { JobQueues } from './job-queues';
import type { JobRunLog } from './job-run-log.repository';
import { JobRunner } from './job-runner.service';
import type { LeaseService } from './lease.service';
import type { TenantFairQueue } from './tenant-fair-queue';

/*
 * How the worker binds the jobs the libs define to their handlers. The queues are stand-ins
 * that record which job names they were told to process: what is tested is the binding,
 * not Bull (the e2e suites run the real queue).
 */

const WRITE = defineJob<{ id: number; clientId: string }>({
  name: 'write',
  tenantOf: ({ clientId }) => clientId,
});
const PING = defineJob<{ url: string }>({ name: 'ping' });
/** A tenant's job of a queue of its own (as the event deliveries wait in `events`). */
const NOTIFY = defineJob<{ clientId: string }>({
  name: 'notify',
  tenantOf: ({ clientId }) => clientId,
  queue: 'notices',
});
const NIGHTLY = defineScheduledJob({
  name: 'nightly',
  interval: { env: 'NIGHTLY_INTERVAL_MS', defaultMs: 0 },
});

@Injectable()
@HandlesJob(WRITE)
class WriteJob {
  handle = async () => undefined;
}

/** The payloads PingJob was given. */
const pinged: unknown[] = [];

@Injectable()
@HandlesJob(PING)
class PingJob {
  handle = async (payload: unknown) => {
    pinged.push(payload);
  };
}

@Injectable()
@HandlesJob(NIGHTLY)
class NightlyJob {
  handle = async () => ({});
}

@Injectable()
@HandlesJob(NIGHTLY)
class SecondNightlyJob {
  handle = async () => ({});
}

function fakeQueue() {
  const processed: {
    name: string;
    concurrency: number;
    processor: (job: Partial<Job>) => Promise<void>;
  }[] = [];
  const queue = {
    process: (
      name: string,
      concurrency: number,
      processor: (job: Partial<Job>) => Promise<void>,
    ) => {
      processed.push({ name, concurrency, processor });
      return new Promise(() => undefined);
    },
    getRepeatableJobs: async () => [],
    add: async () => undefined,
    removeRepeatableByKey: async () => undefined,
  };
  return { queue: queue as unknown as Queue, processed };
}

@Injectable()
@HandlesJob(NOTIFY)
class NotifyJob {
  handle = async () => undefined;
}

function runner(
  jobs: JobDefinition<unknown>[],
  handlerClasses: (new () => object)[],
  served: string[] = ['jobs'],
) {
  const main = fakeQueue();
  const notices = fakeQueue();
  const discovery = {
    getProviders: () => handlerClasses.map((metatype) => ({ metatype, instance: new metatype() })),
  } as unknown as DiscoveryService;
  const settings = { workerConcurrency: 2, env: {} } as unknown as Settings;
  const jobRunner = new JobRunner(
    new JobQueues(
      [
        { name: 'jobs', queue: main.queue, fair: {} as TenantFairQueue },
        { name: 'notices', queue: notices.queue, fair: {} as TenantFairQueue },
      ],
      served,
    ),
    {} as JobQueue,
    discovery,
    new Reflector(),
    settings,
    {} as JobRunLog,
    {} as LeaseService,
    jobs,
  );
  return { jobRunner, main: main.processed, notices: notices.processed };
}

describe('JobRunner', () => {
  it("serves the plain jobs and the fair queue's turns with one processor, WORKER_CONCURRENCY loops for each", () => {
    const { jobRunner, main } = runner([WRITE, PING, NIGHTLY], [WriteJob, PingJob, NightlyJob]);
    jobRunner.onApplicationBootstrap();
    jobRunner.onApplicationShutdown();
    // ping, nightly and tenant-turn (a tenant's jobs run as turns), 2 each.
    expect(main.map(({ name, concurrency }) => ({ name, concurrency }))).toEqual([
      { name: '*', concurrency: 6 },
    ]);
  });

  it('runs each job by the handler of its name; a tenant’s job only as a turn', async () => {
    const { jobRunner, main } = runner([WRITE, PING, NIGHTLY], [WriteJob, PingJob, NightlyJob]);
    jobRunner.onApplicationBootstrap();
    jobRunner.onApplicationShutdown();
    const [{ processor }] = main;
    await processor({ id: 1, name: 'ping', data: { url: 'https://example.com' }, attemptsMade: 0 });
    expect(pinged).toEqual([{ url: 'https://example.com' }]);
    await expect(processor({ id: 2, name: 'write', data: {}, attemptsMade: 0 })).rejects.toThrow(
      'No handler for job "write"',
    );
  });

  it('serves only the queues it is told to: a job of another queue needs no handler', () => {
    const lifted = runner([WRITE, NOTIFY], [WriteJob], ['jobs']);
    lifted.jobRunner.onApplicationBootstrap();
    lifted.jobRunner.onApplicationShutdown();
    expect(lifted.jobRunner.servedQueues).toEqual(['jobs']);
    expect(lifted.main.map(({ name }) => name)).toEqual(['*']);
    expect(lifted.notices).toEqual([]);

    const both = runner([WRITE, NOTIFY], [WriteJob, NotifyJob], ['jobs', 'notices']);
    both.jobRunner.onApplicationBootstrap();
    both.jobRunner.onApplicationShutdown();
    // Each queue its own processor: `notices` has turns only (2 loops).
    expect(both.notices.map(({ name, concurrency }) => ({ name, concurrency }))).toEqual([
      { name: '*', concurrency: 2 },
    ]);
    const alone = runner([WRITE, NOTIFY], [WriteJob], ['jobs', 'notices']);
    expect(() => alone.jobRunner.onApplicationBootstrap()).toThrow('No handler for job "notify"');
  });

  it('refuses to start when a defined job has no handler', () => {
    const { jobRunner } = runner([WRITE, NIGHTLY], [WriteJob]);
    expect(() => jobRunner.onApplicationBootstrap()).toThrow('No handler for job "nightly"');
  });

  it('refuses to start with two handlers for one job', () => {
    const { jobRunner } = runner([WRITE, NIGHTLY], [WriteJob, NightlyJob, SecondNightlyJob]);
    expect(() => jobRunner.onApplicationBootstrap()).toThrow('Two handlers for job "nightly"');
  });

  it('refuses to start with a handler for a job no lib defined to the app', () => {
    const { jobRunner } = runner([WRITE], [WriteJob, NightlyJob]);
    expect(() => jobRunner.onApplicationBootstrap()).toThrow(/job "nightly", which no lib defines/);
  });
});
