import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobQueue, RedisService, Settings } from '@app/shared';
import { pausedProfilesKey } from '../../keys';
import { DELIVER_PROFILE_EVENTS } from '../../worker/event.job-definitions';
import { ReplayPausedEventsCommand } from './replay-paused-events.command';

/** Profiles taken from the set per Redis command. */
const BATCH = 500;

/**
 * Queues a delivery job per profile the subscription took events of while paused (the
 * Redis set the trigger filled), taking them out of the set as it goes; each job delivers
 * that profile's events from its cursor, those accepted since the pause included (the
 * subscription's activeSince, set back to the pause on resumption). A job dying midway
 * leaves the rest in the set for the job's retry.
 */
@CommandHandler(ReplayPausedEventsCommand)
export class ReplayPausedEventsHandler implements ICommandHandler<ReplayPausedEventsCommand> {
  constructor(
    private readonly redis: RedisService,
    private readonly settings: Settings,
    private readonly queue: JobQueue,
  ) {}

  async execute({ clientId, subscriptionId }: ReplayPausedEventsCommand): Promise<void> {
    const key = pausedProfilesKey(this.settings.queuePrefix, clientId, subscriptionId);
    for (;;) {
      const members = await this.redis.client.srandmember(key, BATCH);
      if (!members.length) return;
      for (const member of members) {
        await this.queue.enqueue(DELIVER_PROFILE_EVENTS, {
          clientId,
          subscriptionId,
          profileId: Number(member),
        });
      }
      // Out of the set only once their jobs are queued.
      await this.redis.client.srem(key, ...members);
    }
  }
}
