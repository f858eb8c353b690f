import { Injectable } from '@nestjs/common';
import type { ProfileEvent, ProfileEventListener } from '@app/profiles';
import { JobQueue } from '@app/shared';
import { deliverableSince, subscriptionWants } from '../domain/event-matching';
import { DELIVER_PROFILE_EVENTS } from '../worker/event-jobs';
import { SubscriptionStore } from './subscription-store.service';

/**
 * Profiles' event listener in the worker (docs/events.md, "Deliveries"): after a write's
 * save, queues a delivery job for each subscription of the client that receives now and
 * takes one of the write's events (before narrowing by group: the job reads the profile).
 * The job delivers whatever the pair has not received yet, so a trigger heard twice costs
 * one empty job, and one missed is made up by the profile's next write.
 */
@Injectable()
export class EventDeliveryTrigger implements ProfileEventListener {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly queue: JobQueue,
  ) {}

  async eventsSaved(clientId: string, profileId: number, events: ProfileEvent[]): Promise<void> {
    const subscriptions = await this.store.current(clientId);
    for (const subscription of subscriptions) {
      if (!deliverableSince(subscription)) continue;
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
      await this.queue.enqueue(DELIVER_PROFILE_EVENTS, {
        clientId,
        subscriptionId: subscription.subscriptionId,
        profileId,
      });
    }
  }
}
