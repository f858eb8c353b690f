import { Logger } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RedisEpoch } from '../redis-epoch.service';
import { SweepPendingWritesCommand } from '../../../apply/sweep-pending-writes/sweep-pending-writes.command';
import { RecoverLostRedisCommand } from './recover-lost-redis.command';

/**
 * Redis restarted empty: every queued job, every read model entry and every "job queued"
 * flag is gone, while the engine still holds the accepted writes and their markers. The
 * worker that writes the new epoch sweeps every marker at once (SweepPendingWrites,
 * everyMarker) instead of waiting STALE_WRITE_MS for them to age; the others do nothing (one
 * full sweep per loss). Should that worker die mid-sweep, the periodic sweep carries the
 * rest after STALE_WRITE_MS. The derived structures need nothing here: the read model is
 * rebuilt from the engine on each miss, and the search key index by RebuildSearchKeyIndex.
 */
@CommandHandler(RecoverLostRedisCommand)
export class RecoverLostRedisHandler implements ICommandHandler<RecoverLostRedisCommand> {
  private readonly logger = new Logger('RecoverLostRedis');

  constructor(
    private readonly epoch: RedisEpoch,
    private readonly commands: CommandBus,
  ) {}

  async execute(): Promise<number | null> {
    if (!(await this.epoch.renewedHere())) return null;
    this.logger.warn('Redis holds no epoch (it lost its data): re-enqueueing every pending write');
    return this.commands.execute(new SweepPendingWritesCommand(true));
  }
}
