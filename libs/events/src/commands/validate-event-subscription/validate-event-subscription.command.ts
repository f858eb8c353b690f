import { Command } from '@nestjs/cqrs';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';

/** Validate: the handshake of the subscription's Url again (Pending, queued). */
export class ValidateEventSubscriptionCommand extends Command<EventSubscriptionDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
