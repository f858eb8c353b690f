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
 * A job handler whose run is `run` with the command bus, named after its job in Nest's logs
 * and errors.
 */
function commandBusJob<P, R extends void | JobCounts>(
  job: JobDefinition<P>,
  run: (commands: CommandBus, payload: P) => Promise<R>,
): Type<JobHandler<P, R>> {
  @Injectable()
  @HandlesJob(job)
  class CommandJob implements JobHandler<P, R> {
    constructor(private readonly commands: CommandBus) {}

    handle(payload: P): Promise<R> {
      return run(this.commands, payload);
    }
  }
  Object.defineProperty(CommandJob, 'name', { value: `${job.name}-job` });
  return CommandJob;
}

/**
 * The handler of a scheduled job whose run is one command: each run executes the command
 * `toCommand` makes of the run's payload, and what the command returns is recorded with
 * the run. A lib lists the returned class among its providers.
 */
export function scheduledCommandJob(
  job: ScheduledJobDefinition,
  toCommand: (payload: ScheduledRunPayload) => ICommand,
): Type<JobHandler<ScheduledRunPayload, JobCounts>> {
  return commandBusJob<ScheduledRunPayload, JobCounts>(job, (commands, payload) =>
    commands.execute(toCommand(payload)),
  );
}

/**
 * The handler of a job whose run is one command: each run executes the command `toCommand`
 * makes of the job's payload (what the command returns is not kept). A lib lists the
 * returned class among its providers.
 */
export function commandJob<P>(
  job: JobDefinition<P>,
  toCommand: (payload: P) => ICommand,
): Type<JobHandler<P>> {
  return commandBusJob<P, void>(job, async (commands, payload) => {
    await commands.execute(toCommand(payload));
  });
}
