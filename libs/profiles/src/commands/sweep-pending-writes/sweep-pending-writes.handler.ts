import { Logger } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JOB_NAMES, JobQueue, Settings } from '@app/shared';
import { ProfileWriteRepository } from '../../repositories/profile-write.repository';
import { SweepPendingWritesCommand } from './sweep-pending-writes.command';

@CommandHandler(SweepPendingWritesCommand)
export class SweepPendingWritesHandler implements ICommandHandler<SweepPendingWritesCommand> {
  private readonly logger = new Logger('SweepPendingWrites');

  constructor(
    private readonly writes: ProfileWriteRepository,
    private readonly queue: JobQueue,
    private readonly settings: Settings,
  ) {}

  async execute(): Promise<number> {
    const before = new Date(Date.now() - this.settings.staleWriteMs);
    const stale = await this.writes.staleProfiles(before, 500);
    for (const { clientId, profileId } of stale) {
      await this.queue.enqueue(JOB_NAMES.applyProfileWrites, { clientId, profileId });
    }
    if (stale.length)
      this.logger.log(`re-enqueued ${stale.length} profile(s) with stale pending writes`);
    return stale.length;
  }
}
