import { BullModule, getQueueToken } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { Queue } from 'bull';
import { ClockModule } from '../clock';
import { mongooseFeatures } from '../database/mongoose-features';
import { BullConnections, BullConnectionsModule } from './bull-connections';
import { JOB_DEFINITIONS, type JobDefinition } from './job-definition';
import { JobQueue } from './job-queue.service';
import { JobRunLog } from './job-run-log.repository';
import { JobRun, JobRunSchema } from './job-run.schema';
import { JobRunner } from './job-runner.service';
import { JobStatusController } from './job-status.controller';
import { LeaseService } from './lease.service';
import { JOBS_QUEUE } from './queue.constants';
import { TenantFairQueue } from './tenant-fair-queue';

const bullImports = [
  BullModule.forRootAsync({
    imports: [BullConnectionsModule],
    inject: [BullConnections],
    useFactory: (connections: BullConnections) => connections.options(),
  }),
  BullModule.registerQueue({ name: JOBS_QUEUE }),
  BullConnectionsModule,
  // The Clock every scheduled job reads; global, so both apps get one through here.
  ClockModule,
  mongooseFeatures([JobRun, JobRunSchema]),
];

/** On a cluster, the connections made for Bull close with its queue. */
const closeBullConnections = {
  provide: 'BULL_CONNECTIONS_CLOSER',
  inject: [BullConnections, getQueueToken(JOBS_QUEUE)],
  useFactory: (connections: BullConnections, queue: Queue) => connections.closeWith(queue),
};

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
    return {
      module: QueueModule,
      global: true,
      imports: bullImports,
      controllers: [JobStatusController],
      providers: [
        JobQueue,
        TenantFairQueue,
        LeaseService,
        JobRunLog,
        closeBullConnections,
        { provide: JOB_DEFINITIONS, useValue: jobs },
      ],
      exports: [JobQueue, TenantFairQueue, LeaseService, JobRunLog, JOB_DEFINITIONS],
    };
  }

  /** Producer and consumer side (the worker): runs a handler for each of `jobs`. */
  static forWorker(jobs: JobDefinition<unknown>[]): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [...bullImports, DiscoveryModule],
      providers: [
        JobQueue,
        TenantFairQueue,
        LeaseService,
        JobRunLog,
        JobRunner,
        closeBullConnections,
        { provide: JOB_DEFINITIONS, useValue: jobs },
      ],
      exports: [JobQueue, TenantFairQueue, LeaseService, JobRunLog, JobRunner, JOB_DEFINITIONS],
    };
  }
}
