import { BullModule } from '@nestjs/bull';
import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Settings } from '../settings/settings';
import { JobQueue } from './job-queue.service';
import { JobRunner } from './job-runner.service';
import { LeaseService } from './lease.service';
import { JOBS_QUEUE } from './queue.constants';

const bullImports = [
  BullModule.forRootAsync({
    inject: [Settings],
    useFactory: (settings: Settings) => ({
      redis: settings.redisUrl,
      prefix: settings.queuePrefix,
    }),
  }),
  BullModule.registerQueue({ name: JOBS_QUEUE }),
];

/**
 * Our one module around the queue library: producers use `JobQueue`, the worker adds
 * `JobRunner`, and `LeaseService` gives per-key exclusive leases. Swapping Bull for
 * BullMQ touches this folder only.
 */
@Module({})
export class QueueModule {
  /** Producer side (the api, and the worker when it schedules). */
  static forProducer(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: bullImports,
      providers: [JobQueue, LeaseService],
      exports: [JobQueue, LeaseService],
    };
  }

  /** Producer and consumer side (the worker). */
  static forWorker(): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [...bullImports, DiscoveryModule],
      providers: [JobQueue, LeaseService, JobRunner],
      exports: [JobQueue, LeaseService],
    };
  }
}
