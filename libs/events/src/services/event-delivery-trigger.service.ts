import { Injectable, Logger } from '@nestjs/common';
import type { ProfileEvent, ProfileExtension, SavedProfile } from '@app/profiles';
import { JobQueue, RedisService, Settings } from '@app/shared';
import { pausedProfilesKey } from '../keys';
import { deliverableSince, subscriptionWants } from '../domain/event-matching';
import { DELIVER_PROFILE_EVENTS } from '../worker/event.job-definitions';
import type { EventSubscription } from '../domain/event-subscription';
import { SubscriptionStore } from './subscription-store.service';

/**
 * An extension of Profiles' apply in the worker, its `afterSave` (docs/events.md,
 * "Deliveries"): after a write's save, before the profile's publication, queues a delivery job for each subscription of the client that receives now and
 * takes one of the write's events (before narrowing by group: the job reads the profile).
 * The job delivers whatever the pair has not received yet, so a trigger heard twice costs
 * one empty job, and one missed is made up by the profile's next write. A Paused
 * subscription with DeliverPausedEvents records the profile instead (a Redis set), for the
 * replay when it is Active again. A failure is logged and the save goes on (its events stay
 * stored): what a trigger missed, the profile's next write makes up.
 */
@Injectable()
export class EventDeliveryTrigger implements ProfileExtension {
  private readonly logger = new Logger('ProfileEvents');

  constructor(
    private readonly store: SubscriptionStore,
    private readonly queue: JobQueue,
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  /**
   * The profiles of the client saved with events (one in the worker's pass, a batch's new
   * profiles in a bulk import): its subscriptions read once for them all.
   */
  async afterSave(clientId: string, saved: SavedProfile[]): Promise<void> {
    const some = saved.filter(({ events }) => events.length);
    if (!some.length) return;
    try {
      const subscriptions = await this.store.current(clientId);
      if (!subscriptions.length) return;
      await Promise.all(
        some.map(({ profile, events }) =>
          this.trigger(clientId, subscriptions, profile.profileId, events),
        ),
      );
    } catch (error) {
      this.logger.warn(
        `events of ${some.length} profile(s) of client ${clientId} (${some.map(({ profile }) => profile.profileId).join(', ')}) not passed on: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private async trigger(
    clientId: string,
    subscriptions: EventSubscription[],
    profileId: number,
    events: ProfileEvent[],
  ): Promise<void> {
    for (const subscription of subscriptions) {
      const pausedForLater =
        subscription.state === 'Paused' &&
        subscription.deliverPausedEvents &&
        subscription.validationStatus === 'Validated';
      if (!deliverableSince(subscription) && !pausedForLater) continue;
      // Groups need the profile: the job narrows by them.
      const wants = events.some((event) =>
        subscriptionWants(
          {
            selections: subscription.selections.map(
              ({ Groups: _groups, ...selection }) => selection,
            ),
          },
          event,
        ),
      );
      if (!wants) continue;
      if (pausedForLater) {
        // Delivered when it is Active again (the event-replay job).
        await this.redis.client.sadd(
          pausedProfilesKey(this.settings.queuePrefix, clientId, subscription.subscriptionId),
          String(profileId),
        );
        continue;
      }
      await this.queue.enqueue(DELIVER_PROFILE_EVENTS, {
        clientId,
        subscriptionId: subscription.subscriptionId,
        profileId,
      });
    }
  }
}
