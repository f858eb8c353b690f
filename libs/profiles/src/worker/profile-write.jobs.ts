import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JOB_NAMES, JobHandler, JobPayloads, JobQueue, Settings } from '@app/shared';
import { ApplyProfileWritesCommand } from '../commands/apply-profile-writes/apply-profile-writes.command';
import { SweepPendingWritesCommand } from '../commands/sweep-pending-writes/sweep-pending-writes.command';

/* Job handlers only hand off to commands; the use cases live in the handlers. */

@Injectable()
@HandlesJob(JOB_NAMES.applyProfileWrites)
export class ApplyProfileWritesJob implements JobHandler<typeof JOB_NAMES.applyProfileWrites> {
  constructor(private readonly commands: CommandBus) {}

  async handle(payload: JobPayloads[typeof JOB_NAMES.applyProfileWrites]): Promise<void> {
    await this.commands.execute(new ApplyProfileWritesCommand(payload.clientId, payload.profileId));
  }
}

@Injectable()
@HandlesJob(JOB_NAMES.sweepPendingWrites)
export class SweepPendingWritesJob
  implements JobHandler<typeof JOB_NAMES.sweepPendingWrites>, OnApplicationBootstrap
{
  constructor(
    private readonly commands: CommandBus,
    private readonly queue: JobQueue,
    private readonly settings: Settings,
  ) {}

  /** One schedule in Redis, whatever the number of workers: each run happens once. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.schedule(JOB_NAMES.sweepPendingWrites, {}, this.settings.sweepIntervalMs);
  }

  async handle(): Promise<void> {
    await this.commands.execute(new SweepPendingWritesCommand());
  }
}
