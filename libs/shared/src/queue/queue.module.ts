import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module, type ModuleMetadata, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Queue } from 'bull';
import { ClockModule } from '../clock';
import { mongooseFeatures } from '../database/mongoose-features';
import { Settings } from '../settings/settings';
import { BullConnections, BullConnectionsModule } from './bull-connections';
import { JOB_DEFINITIONS, type JobDefinition } from './job-definition';
import { JobQueue } from './job-queue.service';
import { JobQueues, queueNamesOf } from './job-queues';
import { JobRunLog } from './job-run-log.repository';
import { JobRun, JobRunSchema } from './job-run.schema';
import { JobRunner } from './job-runner.service';
import { JobStatusController } from './job-status.controller';
import { LeaseService } from './lease.service';
import { JOBS_QUEUE } from './queue.constants';
import { TenantFairQueue } from './tenant-fair-queue';

/** Bull (one queue per name in `names`), its connections, the Clock, the runs' records. */
function queueImports(names: readonly string[]): NonNullable<ModuleMetadata['imports']> {
  return [
    BullModule.forRootAsync({
      imports: [BullConnectionsModule],
      inject: [BullConnections],
      useFactory: (connections: BullConnections) => connections.options(),
    }),
    ...names.map((name) => BullModule.registerQueue({ name })),
    BullConnectionsModule,
    // The Clock every scheduled job reads; global, so both apps get one through here.
    ClockModule,
    mongooseFeatures([JobRun, JobRunSchema]),
  ];
}

/**
 * The providers of either side: the queues of `jobs` (each Bull queue with its fair queue;
 * `jobs`' fair queue is the injectable TenantFairQueue), of which the worker serves `served`.
 */
function queueProviders(
  jobs: JobDefinition<unknown>[],
  names: readonly string[],
  served: readonly string[],
): Provider[] {
  const queueTokens = names.map((name) => getQueueToken(name));
  return [
    JobQueue,
    TenantFairQueue,
    LeaseService,
    JobRunLog,
    {
      // On a cluster, the connections made for Bull close with its queues.
      provide: 'BULL_CONNECTIONS_CLOSER',
      inject: [BullConnections, ...queueTokens],
      useFactory: (connections: BullConnections, ...queues: Queue[]) =>
        connections.closeWith(queues),
    },
    {
      provide: JobQueues,
      inject: [Settings, TenantFairQueue, ...queueTokens],
      useFactory: (settings: Settings, jobsFair: TenantFairQueue, ...queues: Queue[]) =>
        new JobQueues(
          queues.map((queue, n) => ({
            name: names[n],
            queue,
            fair: names[n] === JOBS_QUEUE ? jobsFair : new TenantFairQueue(queue, settings),
          })),
          served,
        ),
    },
    { provide: JOB_DEFINITIONS, useValue: jobs },
  ];
}

const exported = [JobQueue, JobQueues, TenantFairQueue, LeaseService, JobRunLog, JOB_DEFINITIONS];

/**
 * Our one module around the queue library: producers use `JobQueue`, the worker adds
 * `JobRunner` (which also runs the scheduled jobs and records their runs in `job_runs`),
 * and `LeaseService` gives per-key exclusive leases. Swapping Bull for BullMQ touches
 * this folder only.
 */
@Module({})
export class QueueModule {
  /**
   * Producer side (the api); serves GET Jobs/Status. `jobs`: the job definitions of the
   * libs the app composes.
   */
  static forProducer(jobs: JobDefinition<unknown>[]): DynamicModule {
    const names = queueNamesOf(jobs);
    return {
      module: QueueModule,
      global: true,
      imports: queueImports(names),
      controllers: [JobStatusController],
      providers: queueProviders(jobs, names, []),
      exports: exported,
    };
  }

  /**
   * Producer and consumer side (a worker): runs a handler for each of `jobs` that waits in a
   * queue it serves, `serve` (default: every queue of `jobs`); the others it only enqueues
   * (the main worker with the deliveries lifted: docs/scaling.md, "Lifted apps").
   */
  static forWorker(
    jobs: JobDefinition<unknown>[],
    options: { serve?: readonly string[] } = {},
  ): DynamicModule {
    const names = queueNamesOf(jobs);
    return {
      module: QueueModule,
      global: true,
      imports: [...queueImports(names), DiscoveryModule],
      providers: [...queueProviders(jobs, names, options.serve ?? names), JobRunner],
      exports: [...exported, JobRunner],
    };
  }
}
