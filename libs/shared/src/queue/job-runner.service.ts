import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  Optional,
} from '@nestjs/common';
import { DiscoveryService, Reflector } from '@nestjs/core';
import type { Job } from 'bull';
import { Metrics } from '../observability/metrics.service';
import { recordDependencyError } from '../observability/process-metrics';
import { runInJobSpan } from '../observability/tracing';
import { Settings } from '../settings/settings';
import {
  intervalOf,
  isScheduled,
  JOB_DEFINITIONS,
  type JobDefinition,
  queueOf,
  type ScheduledJobDefinition,
} from './job-definition';
import { JOB_HANDLER_METADATA, JobHandler } from './job-handler.decorator';
import { JobQueue } from './job-queue.service';
import { JobQueues, type QueueLine } from './job-queues';
import { JobRunLog } from './job-run-log.repository';
import { LeaseService } from './lease.service';
import { JobCounts, SCHEDULED_JOB_OPTIONS } from './queue.constants';
import {
  FAIR_IDLE_TOP_UP_MS,
  FAIR_RUNNING_RENEW_MS,
  type FairItem,
  TENANT_TURN_JOB,
  type TenantTurnPayload,
} from './tenant-fair-queue';

/** A scheduled run holds this lease while it runs (renewed), so runs never overlap. */
const RUN_LEASE_TTL_MS = 60000;
/** How often a worker registers the schedules again (they live in Redis, which may lose them). */
const SCHEDULE_REFRESH_MS = 60000;

/**
 * The consumer side: binds each defined job (JOB_DEFINITIONS, from the libs through the
 * app) to the one provider decorated with `@HandlesJob(definition)`. It refuses to start
 * when a defined job has no handler or two, or a handler's job is not defined, so a job can
 * never sit in Redis with nobody to run it. It also registers the schedules of the
 * scheduled jobs and records every scheduled run in `job_runs`. It serves the queues the app
 * tells it to (QueueModule.forWorker's `serve`): only the jobs waiting in those need a handler.
 */
@Injectable()
export class JobRunner implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobRunner');
  private refresh?: NodeJS.Timeout;
  private topUp?: NodeJS.Timeout;
  private stopRequested = false;
  private handlers = new Map<string, JobHandler<unknown, void | JobCounts>>();

  constructor(
    private readonly queues: JobQueues,
    private readonly jobQueue: JobQueue,
    private readonly discovery: DiscoveryService,
    private readonly reflector: Reflector,
    private readonly settings: Settings,
    private readonly runs: JobRunLog,
    private readonly lease: LeaseService,
    @Inject(JOB_DEFINITIONS) private readonly jobs: JobDefinition<unknown>[],
    @Optional() private readonly metrics?: Metrics,
  ) {}

  onApplicationBootstrap(): void {
    const handlers = new Map<string, JobHandler<unknown, void | JobCounts>>();
    for (const wrapper of this.discovery.getProviders()) {
      if (!wrapper.metatype || !wrapper.instance) continue;
      const name = this.reflector.get<string | undefined>(JOB_HANDLER_METADATA, wrapper.metatype);
      if (!name) continue;
      if (handlers.has(name)) throw new Error(`Two handlers for job "${name}"`);
      if (!this.jobs.some((job) => job.name === name))
        throw new Error(`A handler for job "${name}", which no lib defines to the app`);
      handlers.set(name, wrapper.instance as JobHandler<unknown, void | JobCounts>);
    }
    this.handlers = handlers;
    const served = this.queues.served;
    for (const line of served) this.serve(line, this.runsOf(line, handlers));
    // A ring with work that no turn takes (an item whose turn was never added) gets turns.
    this.topUp = setInterval(() => void this.topUpTurns(), FAIR_IDLE_TOP_UP_MS / 2);
    this.topUp.unref();
    // Not awaited: a worker starts (and applies writes once Redis is back) without Redis.
    const register = () =>
      void this.registerSchedules().catch((error: unknown) =>
        this.logger.warn(`registering the schedules failed, retrying: ${String(error)}`),
      );
    register();
    this.refresh = setInterval(register, SCHEDULE_REFRESH_MS);
    this.logger.log(
      `Processing jobs of ${served.map(({ name }) => name).join(', ')}: ${[...handlers.keys()].join(', ')}`,
    );
  }

  /** The names of the queues this worker takes jobs from. */
  get servedQueues(): string[] {
    return this.queues.served.map(({ name }) => name);
  }

  /** What runs each job of `line`'s queue, by name: its plain jobs and its fair queue's turns. */
  private runsOf(
    line: QueueLine,
    handlers: ReadonlyMap<string, JobHandler<unknown, void | JobCounts>>,
  ): Map<string, (run: Job) => Promise<unknown>> {
    const runs = new Map<string, (run: Job) => Promise<unknown>>();
    for (const job of this.jobs.filter((candidate) => queueOf(candidate) === line.name)) {
      const handler = handlers.get(job.name);
      if (!handler) throw new Error(`No handler for job "${job.name}"`);
      // A tenant's jobs run as turns of the fair queue (below), not under their own name.
      if (job.tenantOf) continue;
      // In a span continuing the payload's `trace` when tracing is on (tracing.ts).
      runs.set(job.name, (run) =>
        runInJobSpan(job.name, run, () =>
          isScheduled(job)
            ? this.runScheduled(job, run, handler as JobHandler<unknown, JobCounts>)
            : handler.handle(run.data),
        ),
      );
    }
    runs.set(TENANT_TURN_JOB, (run) => this.runTurn(line, run));
    return runs;
  }

  /**
   * The process is stopping (stop was called): a job that goes on from step to step by
   * itself (a bulk import's run slice) ends at its next step and queues the rest.
   */
  get stopping(): boolean {
    return this.stopRequested;
  }

  onApplicationShutdown(): void {
    clearInterval(this.refresh);
    clearInterval(this.topUp);
  }

  /**
   * Runs the queue's jobs, each by the function of its name, with one Bull processor of
   * WORKER_CONCURRENCY loops per name: as many loops as a processor per name had (Bull's
   * loops of named processors each take any job of the queue, so their concurrency added
   * up), but one processor. A processor per name made Bull wait for the queue's Redis
   * connection once per name, with three listeners on it each time: eleven names starting
   * before the connection was ready were three MaxListenersExceededWarning lines. The
   * promise Bull returns settles when processing stops: with an error when Redis failed
   * while Bull recorded a job's outcome (the job is then retried as stalled). Logged: left
   * unhandled, it would end the process.
   */
  private serve(
    { queue }: QueueLine,
    runs: ReadonlyMap<string, (job: Job) => Promise<unknown>>,
  ): void {
    this.catchWorkerNaming(queue);
    queue
      .process('*', this.settings.workerConcurrency * runs.size, async (job: Job) => {
        try {
          const run = runs.get(job.name);
          // A job no lib of this worker defines (a newer api's?): failed, so that it is seen.
          if (!run) throw new Error(`No handler for job "${job.name}"`);
          await run(job);
        } catch (error) {
          // Counted when the engine or Redis failed it (pcp_dependency_errors_total).
          recordDependencyError(error);
          // Bull retries it; the line names the job so its retries can be followed.
          const label = jobLabel(job);
          this.logger.warn(
            { jobId: String(job.id), job: label, attempt: job.attemptsMade + 1 },
            `${label} job ${String(job.id)} failed (attempt ${job.attemptsMade + 1}): ${messageOf(error)}`,
          );
          throw error;
        }
      })
      .catch((error: unknown) =>
        this.logger.warn(`processing of the queue's jobs stopped: ${String(error)}`),
      );
  }

  /**
   * Bull's process() names its blocking connection (CLIENT SETNAME, for getWorkers) without
   * awaiting the answer, and rethrows its failure: a worker stopped before Redis answered
   * (its pause cuts that connection) rejected it with nothing to catch it, and an unhandled
   * rejection ends the process (exit code 1 instead of a clean stop). Bull 4.16.5, the last
   * release, still does. The naming is kept as it is; its failure is only logged.
   */
  private catchWorkerNaming(bullQueue: QueueLine['queue']): void {
    const queue = bullQueue as QueueLine['queue'] & { setWorkerName?: () => Promise<void> };
    const setWorkerName = queue.setWorkerName?.bind(queue);
    if (!setWorkerName) return;
    queue.setWorkerName = () =>
      setWorkerName().catch((error: unknown) =>
        this.logger.warn(`naming this worker's Redis connection failed: ${String(error)}`),
      );
  }

  /**
   * One turn of the fair queue: its own delayed item, or the ring's next one (the same one
   * again when Bull retries the turn), run by its job's handler. When the finished item's
   * tenant was owed a turn (a turn had found it at its cap), this turn takes the ring's next
   * item itself instead of adding a Bull turn for it: a flood of one tenant at its cap then
   * costs one Bull job per item, not two (each taken item is still this turn's `taken` key,
   * so a retry after a crash resumes the one that was running).
   */
  private async runTurn(line: QueueLine, run: Job<TenantTurnPayload>): Promise<void> {
    const turnId = String(run.id);
    const own = run.data.item;
    let item = own ?? (await line.fair.take(turnId));
    let owned = own !== undefined;
    while (item) {
      if (!(await this.runItem(line, run, turnId, item, owned))) return;
      owned = false;
      // Stopping: the owed turn goes back to the queue for another worker. After a failure
      // too: a retried turn's attempts count for every item it takes, so it takes no more.
      if (this.stopRequested || run.attemptsMade > 0) {
        await this.addOwedTurn(line);
        return;
      }
      item = await line.fair.take(turnId);
    }
  }

  /**
   * Runs one item of a turn; true when its tenant was owed a turn, which the caller then
   * takes (a turn whose item failed on its last attempt adds it back to the queue instead).
   */
  private async runItem(
    line: QueueLine,
    run: Job<TenantTurnPayload>,
    turnId: string,
    item: FairItem,
    own: boolean,
  ): Promise<boolean> {
    const { fair } = line;
    const handler = this.handlers.get(item.job);
    // An item queued before its job got a queue of its own (an upgrade): moved there.
    const moved = this.jobs.find((job) => job.name === item.job && queueOf(job) !== line.name);
    let finished = false;
    let owed = false;
    // Its running mark kept while it runs: a killed worker's marks lapse in seconds.
    const renewal = own
      ? undefined
      : setInterval(
          () =>
            void fair
              .renew(turnId, item)
              .catch((error: unknown) =>
                this.logger.warn(
                  `renewing the running mark of ${item.job} failed: ${String(error)}`,
                ),
              ),
          FAIR_RUNNING_RENEW_MS,
        );
    try {
      if (moved) {
        await this.jobQueue.enqueue(moved, item.payload, { lane: item.lane });
      } else {
        // A job no lib of this worker defines (a newer api's?): failed, so that it is seen.
        if (!handler) throw new Error(`No handler for job "${item.job}"`);
        // The item's payload carries the queuing span's context (`trace`) when tracing is on.
        await runInJobSpan(item.job, { ...run, data: item.payload }, () =>
          handler.handle(item.payload),
        );
      }
      finished = true;
    } finally {
      clearInterval(renewal);
      // A delayed item ran outside the ring's count. Failed with attempts left, the turn
      // keeps its item (and its place) for Bull's retry.
      const lastAttempt = run.attemptsMade + 1 >= (run.opts.attempts ?? 1);
      if (!own && (finished || lastAttempt)) owed = await this.finishTurn(line, turnId, item);
      if (owed && !finished) await this.addOwedTurn(line);
    }
    return owed;
  }

  /** The item's tenant place freed; true when a turn is owed to a capped tenant's work. */
  private async finishTurn(line: QueueLine, turnId: string, item: FairItem): Promise<boolean> {
    try {
      return await line.fair.done(turnId, item);
    } catch (error) {
      // Its running mark expires; a lost owed turn is made up by the idle top-up.
      this.logger.warn(`finishing the turn of ${item.job} failed: ${String(error)}`);
      return false;
    }
  }

  /** An owed turn this process does not take itself, added back to the queue. */
  private async addOwedTurn(line: QueueLine): Promise<void> {
    try {
      await this.jobQueue.addTurns(1, line.name);
    } catch (error) {
      // The idle top-up makes it up (the ring has work no turn takes).
      this.logger.warn(`adding an owed turn failed: ${String(error)}`);
    }
  }

  private async topUpTurns(): Promise<void> {
    for (const { name, fair } of this.queues.served) {
      if (this.stopRequested) return;
      try {
        const idle = (await fair.idleEntries()) + (await fair.reclaimOwed());
        if (idle > 0) await this.jobQueue.addTurns(idle, name);
      } catch (error) {
        this.logger.warn(`topping up the fair queue's turns of ${name} failed: ${String(error)}`);
      }
    }
  }

  /**
   * Stops taking jobs in this process and resolves when the running ones have finished,
   * or after `graceMs`; true when none was left running. A job still running then is
   * handed back when the process closes: its lock lapses and Bull gives it to another
   * worker as stalled (every job is safe to run again: writes are applied by sequence).
   */
  async stop(graceMs: number): Promise<boolean> {
    this.stopRequested = true;
    clearInterval(this.refresh);
    clearInterval(this.topUp);
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      // Local pause: this process takes no new job and waits for its active ones.
      Promise.all(this.queues.served.map(({ queue }) => queue.pause(true))).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), graceMs);
      }),
    ]).catch((error: unknown) => {
      this.logger.warn(`stopping the queues failed: ${String(error)}`);
      return false;
    });
    clearTimeout(timer);
    return finished;
  }

  /**
   * Adds each scheduled job as a Bull repeatable job. Bull keeps one schedule per repeat
   * key (name + interval) and names each run by its slot (a multiple of the interval), so
   * every worker registering it, at start and every SCHEDULE_REFRESH_MS (a Redis that lost
   * its data gets the schedules back), changes nothing; a schedule with another interval
   * (the setting changed) is removed first.
   */
  private async registerSchedules(): Promise<void> {
    for (const { name: queueName, queue } of this.queues.served) {
      const scheduled = this.jobs.filter(
        (job): job is ScheduledJobDefinition => isScheduled(job) && queueOf(job) === queueName,
      );
      if (!scheduled.length) continue;
      const existing = await queue.getRepeatableJobs();
      for (const job of scheduled) {
        const { name } = job;
        const every = intervalOf(job, this.settings);
        for (const repeat of existing) {
          if (repeat.name === name && Number(repeat.every) !== every) {
            await queue.removeRepeatableByKey(repeat.key);
          }
        }
        if (every > 0) {
          await queue.add(name, {}, { ...SCHEDULED_JOB_OPTIONS, repeat: { every } });
        }
      }
    }
  }

  /**
   * One run: recorded in `job_runs` (outcome, counts) and logged. A run that finds another
   * run of the same job in progress (a slow run outlasting its interval) is skipped.
   */
  private async runScheduled(
    { name }: ScheduledJobDefinition,
    job: Job,
    handler: JobHandler<unknown, JobCounts>,
  ): Promise<void> {
    const trigger = job.opts.repeat ? 'schedule' : 'trigger';
    const runId = await this.runs.start(name, String(job.id), trigger, new Date());
    const leaseName = `job:${name}`;
    const token = await this.lease.acquire(leaseName, RUN_LEASE_TTL_MS);
    if (!token) {
      this.logger.log(
        { jobId: String(job.id), job: name },
        `${name}: skipped, another run is in progress`,
      );
      this.metrics?.scheduledRun(name, 'skipped');
      await this.runs.finish(runId, 'skipped', new Date());
      return;
    }
    const renew = setInterval(
      () => void this.lease.extend(leaseName, token, RUN_LEASE_TTL_MS).catch(() => undefined),
      RUN_LEASE_TTL_MS / 3,
    );
    try {
      const counts: JobCounts = await handler.handle(job.data);
      this.logger.log(
        { jobId: String(job.id), job: name, counts },
        `${name}: ok ${JSON.stringify(counts)}`,
      );
      this.metrics?.scheduledRun(name, 'ok');
      await this.runs.finish(runId, 'ok', new Date(), { counts });
    } catch (error) {
      const message = messageOf(error);
      this.logger.error({ jobId: String(job.id), job: name }, `${name}: failed: ${message}`);
      this.metrics?.scheduledRun(name, 'failed');
      await this.runs.finish(runId, 'failed', new Date(), { error: message });
      throw error;
    } finally {
      clearInterval(renew);
      await this.lease.release(leaseName, token);
      await this.runs.prune(name).catch(() => undefined);
    }
  }
}

/** A turn is logged as the job of its item when it knows it. */
function jobLabel(job: Job): string {
  const item = (job.data as TenantTurnPayload | undefined)?.item;
  return job.name === TENANT_TURN_JOB && item ? `${TENANT_TURN_JOB}(${item.job})` : job.name;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
