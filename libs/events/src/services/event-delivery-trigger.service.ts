import { Injectable } from '@nestjs/common';
import type { ProfileEvent, ProfileEventListener } from '@app/profiles';
import { JobQueue, RedisService, Settings } from '@app/shared';
import { pausedProfilesKey } from '../keys';
import { deliverableSince, subscriptionWants } from '../domain/event-matching';
import { DELIVER_PROFILE_EVENTS } from '../worker/event.job-definitions';
import type { EventSubscription } from '../domain/event-subscription';
import { SubscriptionStore } from './subscription-store.service';

/**
 * Profiles' event listener in the worker (docs/events.md, "Deliveries"): after a write's
 * save, queues a delivery job for each subscription of the client that receives now and
 * takes one of the write's events (before narrowing by group: the job reads the profile).
 * The job delivers whatever the pair has not received yet, so a trigger heard twice costs
 * one empty job, and one missed is made up by the profile's next write. A Paused
 * subscription with DeliverPausedEvents records the profile instead (a Redis set), for the
 * replay when it is Active again.
 */
@Injectable()
export class EventDeliveryTrigger implements ProfileEventListener {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly queue: JobQueue,
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  async eventsSaved(clientId: string, profileId: number, events: ProfileEvent[]): Promise<void> {
    await this.trigger(clientId, await this.store.current(clientId), profileId, events);
  }

  /** The same for many profiles of the client: its subscriptions read once for them all. */
  async eventsSavedMany(
    clientId: string,
    saved: { profileId: number; events: ProfileEvent[] }[],
  ): Promise<void> {
    const subscriptions = await this.store.current(clientId);
    if (!subscriptions.length) return;
    await Promise.all(
      saved.map(({ profileId, events }) =>
        this.trigger(clientId, subscriptions, profileId, events),
      ),
    );
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
