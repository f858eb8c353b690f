import { Command } from '@nestjs/cqrs';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';

/** Rotate: a new signing secret, answered once; the previous one signs for 24 hours more. */
export class RotateEventSubscriptionSecretCommand extends Command<EventSubscriptionDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
