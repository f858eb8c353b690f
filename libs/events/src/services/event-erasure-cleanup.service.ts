import { Injectable } from '@nestjs/common';
import type { ProfileExtension } from '@app/profiles';
import { RedisService, Settings } from '@app/shared';
import { pausedProfilesKey } from '../keys';
import { EventDeliveryRepository } from '../repositories/event-delivery.repository';
import { DeadLetters } from './dead-letters.service';
import { SubscriptionStore } from './subscription-store.service';

/**
 * An extension of Profiles' apply in the worker, its `erased` (docs/data-subject.md): what
 * Events holds of an erased profile goes, for each subscription of the client: its dead
 * letters (their bodies are copies of its events, with its data), its delivery cursor and
 * its mark among the profiles a paused subscription owes deliveries. Each step is by `_id` (or one Redis
 * key) and idempotent; the erasure calls it again after a crash. Delivery jobs in the queue
 * carry ids only (a job for the profile finds nothing left to send but its
 * `profile.deleted`). Left: the dead letters of subscriptions deleted before (their list is
 * no longer reachable by a subscription id; docs/events.md).
 */
@Injectable()
export class EventErasureCleanup implements ProfileExtension {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly deadLetters: DeadLetters,
    private readonly deliveries: EventDeliveryRepository,
    private readonly redis: RedisService,
    private readonly settings: Settings,
  ) {}

  async erased(clientId: string, profileId: number): Promise<void> {
    for (const { subscriptionId } of await this.store.current(clientId)) {
      await this.deadLetters.removeProfile(clientId, subscriptionId, profileId);
      await this.deliveries.deleteCursor(clientId, subscriptionId, profileId);
      await this.redis.client.srem(
        pausedProfilesKey(this.settings.queuePrefix, clientId, subscriptionId),
        String(profileId),
      );
    }
  }
}
