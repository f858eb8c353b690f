import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Queue } from 'bull';
import { Settings } from '../settings/settings';
import { JOB_HANDLER_METADATA, JobHandler } from './job-handler.decorator';
import { JOB_NAMES, JOBS_QUEUE, JobName } from './queue.constants';

/**
 * The consumer side: binds each job name to the one provider decorated with
 * `@HandlesJob(name)`. It refuses to start when a job name has no handler or two, so a
 * job can never sit in Redis with nobody to run it.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap {
  private readonly logger = new Logger('JobRunner');

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly settings: Settings,
  ) {}

  onApplicationBootstrap(): void {
    const handlers = new Map<JobName, JobHandler<JobName>>();
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const name = this.reflector.get<JobName | undefined>(JOB_HANDLER_METADATA, wrapper.metatype);
      if (!name) continue;
      if (handlers.has(name)) throw new Error(`Two handlers for job "${name}"`);
      handlers.set(name, wrapper.instance as JobHandler<JobName>);
    }
    for (const name of Object.values(JOB_NAMES)) {
      const handler = handlers.get(name);
      if (!handler) throw new Error(`No handler for job "${name}"`);
      void this.queue.process(name, this.settings.workerConcurrency, async (job) => {
        await handler.handle(job.data);
      });
    }
    this.logger.log(`Processing jobs: ${[...handlers.keys()].join(', ')}`);
  }
}
