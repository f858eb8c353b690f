import { EnvReader } from '../settings/env-reader';
import { defineSettings, type IntSpec, type SettingsDeclaration } from '../settings/setting-spec';
import type { Settings } from '../settings/settings';
import { JOBS_QUEUE, type ScheduledRunPayload } from './queue.constants';

/** The environment variable holding a schedule's interval in ms, and its default. */
export interface IntervalSetting {
  readonly env: string;
  readonly defaultMs: number;
  /** One line for the settings schema (default: "interval of the scheduled <job> job"). */
  readonly meaning?: string;
}

/**
 * A job, as the lib that owns it defines it (`defineJob`): its name, the type of its
 * payload (the contract between the producer and the handler), for a tenant's work the
 * tenant it belongs to, and, for a scheduled job, the variable holding its interval (the job's own setting). Producers enqueue the
 * definition, the handler is marked `@HandlesJob(definition)`, and the apps hand every
 * definition to QueueModule, whose worker side refuses to start when a defined job has no
 * handler or two.
 */
export interface JobDefinition<P = unknown> {
  readonly name: string;
  /**
   * A tenant's work (profile writes, bulk imports and exports): the tenant a payload belongs
   * to. Such jobs wait in the tenant's own queue and are served round robin between tenants
   * (TenantFairQueue); without it a job is a plain Bull job, served in arrival order.
   */
  tenantOf?(payload: P): string;
  /** A scheduled job (a Bull repeatable job): its interval's variable; 0 turns it off. */
  readonly interval?: IntervalSetting;
  /**
   * The queue it waits in (a Bull queue and its own fair queue), when not `jobs`: a worker
   * serves whole queues, so work another process takes (the event deliveries, for the
   * lifted events worker) has a queue of its own.
   */
  readonly queue?: string;
  /** Never set: carries the payload type. */
  readonly payloadType?: P;
}

/** A scheduled job's definition: its runs take a ScheduledRunPayload. */
export type ScheduledJobDefinition = JobDefinition<ScheduledRunPayload> & {
  readonly interval: IntervalSetting;
};

export function defineJob<P>(definition: Omit<JobDefinition<P>, 'payloadType'>): JobDefinition<P> {
  return definition;
}

export function defineScheduledJob(
  definition: Omit<ScheduledJobDefinition, 'payloadType' | 'tenantOf'>,
): ScheduledJobDefinition {
  return definition;
}

/** The queue a job waits in (JobDefinition.queue, default `jobs`). */
export function queueOf(job: JobDefinition<unknown>): string {
  return job.queue ?? JOBS_QUEUE;
}

export function isScheduled(job: JobDefinition<unknown>): job is ScheduledJobDefinition {
  return job.interval !== undefined;
}

/** A scheduled job's interval variable, as the settings schema declares it. */
function intervalSpec(job: ScheduledJobDefinition): IntSpec {
  return {
    name: job.interval.env,
    type: 'int',
    default: job.interval.defaultMs,
    meaning: job.interval.meaning ?? `interval of the scheduled ${job.name} job; 0 turns it off`,
  };
}

/**
 * The interval variables of the scheduled jobs among `jobs`, as a settings declaration (the
 * apps check them at start with their libs' declarations).
 */
export function scheduledJobSettings(jobs: readonly JobDefinition<unknown>[]): SettingsDeclaration {
  return defineSettings('scheduled jobs', jobs.filter(isScheduled).map(intervalSpec));
}

/** A scheduled job's interval in ms, read from the process's environment. */
export function intervalOf(job: ScheduledJobDefinition, settings: Settings): number {
  const spec = intervalSpec(job);
  return new EnvReader(settings.env).read(defineSettings('scheduled jobs', [spec]))[spec.name];
}

/** The injection token of every job definition the app runs or produces (QueueModule). */
export const JOB_DEFINITIONS = Symbol('JOB_DEFINITIONS');
