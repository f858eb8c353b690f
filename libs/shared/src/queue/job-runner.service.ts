import { InjectQueue } from '@nestjs/bull';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Job, Queue } from 'bull';
import { Settings } from '../settings/settings';
import { JOB_HANDLER_METADATA, JobHandler } from './job-handler.decorator';
import { JobRunLog } from './job-run-log.service';
import { LeaseService } from './lease.service';
import {
  BULK_JOBS_QUEUE,
  isScheduledJob,
  JOB_NAMES,
  JobCounts,
  JOBS_QUEUE,
  JobName,
  SCHEDULED_JOB_OPTIONS,
  SCHEDULED_JOBS,
  ScheduledJobName,
} from './queue.constants';

/** A scheduled run holds this lease while it runs (renewed), so runs never overlap. */
const RUN_LEASE_TTL_MS = 60000;
/** How often a worker registers the schedules again (they live in Redis, which may lose them). */
const SCHEDULE_REFRESH_MS = 60000;

/**
 * The consumer side: binds each job name to the one provider decorated with
 * `@HandlesJob(name)`. It refuses to start when a job name has no handler or two, so a
 * job can never sit in Redis with nobody to run it. It also registers the schedules of
 * SCHEDULED_JOBS and records every scheduled run in `job_runs`.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobRunner');
  private refresh?: NodeJS.Timeout;

  constructor(
    @InjectQueue(JOBS_QUEUE) private readonly queue: Queue,
    @InjectQueue(BULK_JOBS_QUEUE) private readonly bulk: Queue,
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly settings: Settings,
    private readonly runs: JobRunLog,
    private readonly lease: LeaseService,
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
      // The promise settles when processing stops: with an error when Redis failed while
      // Bull recorded a job's outcome (the job is then retried as stalled). Logged: left
      // unhandled, it would end the process. Profile writes are served in both lanes, each
      // with the full concurrency (see BULK_JOBS_QUEUE).
      const lanes = name === JOB_NAMES.applyProfileWrites ? [this.queue, this.bulk] : [this.queue];
      for (const lane of lanes) {
        lane
          .process(name, this.settings.workerConcurrency, async (job: Job) => {
            if (isScheduledJob(name)) {
              await this.runScheduled(name, job, handler as JobHandler<ScheduledJobName>);
            } else {
              await handler.handle(job.data);
            }
          })
          .catch((error: unknown) =>
            this.logger.warn(`processing of "${name}" jobs stopped: ${String(error)}`),
          );
      }
    }
    // Not awaited: a worker starts (and applies writes once Redis is back) without Redis.
    const register = () =>
      void this.registerSchedules().catch((error: unknown) =>
        this.logger.warn(`registering the schedules failed, retrying: ${String(error)}`),
      );
    register();
    this.refresh = setInterval(register, SCHEDULE_REFRESH_MS);
    this.logger.log(`Processing jobs: ${[...handlers.keys()].join(', ')}`);
  }

  onApplicationShutdown(): void {
    clearInterval(this.refresh);
  }

  /**
   * Adds each scheduled job as a Bull repeatable job. Bull keeps one schedule per repeat
   * key (name + interval) and names each run by its slot (a multiple of the interval), so
   * every worker registering it, at start and every SCHEDULE_REFRESH_MS (a Redis that lost
   * its data gets the schedules back), changes nothing; a schedule with another interval
   * (the setting changed) is removed first.
   */
  private async registerSchedules(): Promise<void> {
    const existing = await this.queue.getRepeatableJobs();
    for (const { name, intervalSetting } of SCHEDULED_JOBS) {
      const every = this.settings[intervalSetting];
      for (const repeat of existing) {
        if (repeat.name === name && Number(repeat.every) !== every) {
          await this.queue.removeRepeatableByKey(repeat.key);
        }
      }
      if (every > 0) {
        await this.queue.add(name, {}, { ...SCHEDULED_JOB_OPTIONS, repeat: { every } });
      }
    }
  }

  /**
   * One run: recorded in `job_runs` (outcome, counts) and logged. A run that finds another
   * run of the same job in progress (a slow run outlasting its interval) is skipped.
   */
  private async runScheduled(
    name: ScheduledJobName,
    job: Job,
    handler: JobHandler<ScheduledJobName>,
  ): Promise<void> {
    const trigger = job.opts.repeat ? 'schedule' : 'trigger';
    const runId = await this.runs.start(name, String(job.id), trigger, new Date());
    const leaseName = `job:${name}`;
    const token = await this.lease.acquire(leaseName, RUN_LEASE_TTL_MS);
    if (!token) {
      this.logger.log(`${name}: skipped, another run is in progress`);
      await this.runs.finish(runId, 'skipped', new Date());
      return;
    }
    const renew = setInterval(
      () => void this.lease.extend(leaseName, token, RUN_LEASE_TTL_MS).catch(() => undefined),
      RUN_LEASE_TTL_MS / 3,
    );
    try {
      const counts: JobCounts = await handler.handle(job.data as object);
      this.logger.log(`${name}: ok ${JSON.stringify(counts)}`);
      await this.runs.finish(runId, 'ok', new Date(), { counts });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error(`${name}: failed: ${message}`);
      await this.runs.finish(runId, 'failed', new Date(), { error: message });
      throw error;
    } finally {
      clearInterval(renew);
      await this.lease.release(leaseName, token);
      await this.runs.prune(name).catch(() => undefined);
    }
  }
}
