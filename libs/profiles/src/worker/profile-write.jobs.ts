import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HandlesJob, JobHandler } from '@app/shared';
import { ApplyProfileWritesCommand } from '../commands/apply-profile-writes/apply-profile-writes.command';
import { SweepPendingWritesCommand } from '../commands/sweep-pending-writes/sweep-pending-writes.command';
import { APPLY_PROFILE_WRITES, type ApplyProfileWritesPayload } from './profile.job-definitions';
import { ProfileSettings } from '../profile-settings';

/* Job handlers and timers only hand off to commands; the use cases live in the handlers. */

@Injectable()
@HandlesJob(APPLY_PROFILE_WRITES)
export class ApplyProfileWritesJob implements JobHandler<ApplyProfileWritesPayload> {
  constructor(private readonly commands: CommandBus) {}

  async handle(payload: ApplyProfileWritesPayload): Promise<void> {
    await this.commands.execute(
      new ApplyProfileWritesCommand(
        payload.clientId,
        payload.profileId,
        payload.seq,
        payload.busy,
        payload.lane,
        payload.token,
      ),
    );
  }
}

/**
 * Runs the sweep on a timer of this process, not as a job in Redis: the sweep exists to
 * recover from a Redis that lost its data, and a schedule kept in that same Redis would
 * be lost with it. Every worker sweeps; a profile enqueued twice is applied once.
 */
@Injectable()
export class PendingWriteSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('PendingWriteSweeper');
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly commands: CommandBus,
    private readonly settings: ProfileSettings,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.sweep(), this.settings.sweepIntervalMs);
    // At once too: a lost search key index is rebuilt by the sweep (SweepPendingWrites).
    void this.sweep();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async sweep(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      await this.commands.execute(new SweepPendingWritesCommand());
    } catch (error) {
      this.logger.warn(
        `sweep failed, next in ${this.settings.sweepIntervalMs} ms: ${String(error)}`,
      );
    } finally {
      this.running = false;
    }
  }
}
