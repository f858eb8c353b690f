import { Query } from '@nestjs/cqrs';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';

/** One subscription of the client, by its id. */
export class GetEventSubscriptionQuery extends Query<EventSubscriptionDto> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
