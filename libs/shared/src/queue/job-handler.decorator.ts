import { Injectable, SetMetadata, type Type } from '@nestjs/common';
import { CommandBus, type ICommand } from '@nestjs/cqrs';
import type { JobDefinition, ScheduledJobDefinition } from './job-definition';
import type { JobCounts, ScheduledRunPayload } from './queue.constants';

export const JOB_HANDLER_METADATA = 'pcp:job-handler';

/**
 * A provider that handles one job; the worker refuses to start without exactly one per
 * defined job. A scheduled job's handler returns what it changed (recorded with the run).
 */
export interface JobHandler<P, R extends void | JobCounts = void> {
  handle(payload: P): Promise<R>;
}

export const HandlesJob = (job: JobDefinition<unknown>): ClassDecorator =>
  SetMetadata(JOB_HANDLER_METADATA, job.name);

/**
 * The handler of a scheduled job whose run is one command: each run executes the command
 * `toCommand` makes of the run's payload, and what the command returns is recorded with
 * the run. A lib lists the returned class among its providers.
 */
export function scheduledCommandJob(
  job: ScheduledJobDefinition,
  toCommand: (payload: ScheduledRunPayload) => ICommand,
): Type<JobHandler<ScheduledRunPayload, JobCounts>> {
  @Injectable()
  @HandlesJob(job)
  class ScheduledCommandJob implements JobHandler<ScheduledRunPayload, JobCounts> {
    constructor(private readonly commands: CommandBus) {}

    handle(payload: ScheduledRunPayload): Promise<JobCounts> {
      return this.commands.execute(toCommand(payload));
    }
  }
  // Named after its job in Nest's logs and errors.
  Object.defineProperty(ScheduledCommandJob, 'name', { value: `${job.name}-job` });
  return ScheduledCommandJob;
}
