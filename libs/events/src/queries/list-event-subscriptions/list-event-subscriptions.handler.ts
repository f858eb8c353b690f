import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { EventSubscriptionListDto } from '../../dto/event-subscription.dto';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { ListEventSubscriptionsQuery } from './list-event-subscriptions.query';

/** The client's one subscriptions document, by `_id`, in creation order. */
@QueryHandler(ListEventSubscriptionsQuery)
export class ListEventSubscriptionsHandler implements IQueryHandler<ListEventSubscriptionsQuery> {
  constructor(private readonly store: SubscriptionStore) {}

  async execute({ clientId }: ListEventSubscriptionsQuery): Promise<EventSubscriptionListDto> {
    const subscriptions = await this.store.list(clientId);
    return { Subscriptions: subscriptions.map((item) => toEventSubscriptionDto(item)) };
  }
}
