import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { subscriptionNotFound } from '../../domain/event-subscription';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { GetEventSubscriptionQuery } from './get-event-subscription.query';

/** Looked up in the caller's own list only: another client's id is unknown here (404). */
@QueryHandler(GetEventSubscriptionQuery)
export class GetEventSubscriptionHandler implements IQueryHandler<GetEventSubscriptionQuery> {
  constructor(private readonly store: SubscriptionStore) {}

  async execute({
    clientId,
    subscriptionId,
  }: GetEventSubscriptionQuery): Promise<EventSubscriptionDto> {
    const subscription = await this.store.find(clientId, subscriptionId);
    if (!subscription) throw new NotFoundError(subscriptionNotFound(subscriptionId));
    return toEventSubscriptionDto(subscription);
  }
}
