import { Injectable } from '@nestjs/common';
import { TenantScopedModel, InjectTenantScoped } from '@app/shared';
import type { EventSubscription } from '../domain/event-subscription';
import { ClientEventSubscriptions } from '../domain/event-subscription.schema';
import { subscriptionsKey } from '../keys';

/**
 * The `event_subscriptions` collection: one document per client, read and written by `_id`
 * (the client id) only. Writes go through SubscriptionStore, which holds the client's lease.
 */
@Injectable()
export class EventSubscriptionRepository {
  constructor(
    @InjectTenantScoped(ClientEventSubscriptions)
    private readonly lists: TenantScopedModel<ClientEventSubscriptions>,
  ) {}

  /** The client's subscriptions ([] when it has none). */
  async load(clientId: string): Promise<EventSubscription[]> {
    const doc = await this.lists
      .findById(subscriptionsKey(clientId))
      .lean<ClientEventSubscriptions>()
      .exec();
    return doc?.subscriptions ?? [];
  }

  /** Replaces the client's list whole (its document goes when the list is empty). */
  async save(clientId: string, subscriptions: readonly EventSubscription[]): Promise<void> {
    const _id = subscriptionsKey(clientId);
    if (subscriptions.length === 0) {
      await this.lists.deleteOne({ _id }).exec();
      return;
    }
    await this.lists
      .replaceOne({ _id }, { _id, clientId, subscriptions: [...subscriptions] }, { upsert: true })
      .exec();
  }
}
