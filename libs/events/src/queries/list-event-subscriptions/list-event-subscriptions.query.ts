import { Query } from '@nestjs/cqrs';
import type { EventSubscriptionListDto } from '../../dto/event-subscription.dto';

/** Every subscription of the client (at most EVENTS_MAX_SUBSCRIPTIONS). */
export class ListEventSubscriptionsQuery extends Query<EventSubscriptionListDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
