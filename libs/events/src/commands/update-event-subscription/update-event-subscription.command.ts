import { Command } from '@nestjs/cqrs';
import type {
  EventSubscriptionBodyDto,
  EventSubscriptionDto,
} from '../../dto/event-subscription.dto';

/** Update (PUT): the whole subscription replaced; IsActive false deletes it. */
export class UpdateEventSubscriptionCommand extends Command<EventSubscriptionDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly subscriptionId: string,
    readonly body: EventSubscriptionBodyDto,
  ) {
    super();
  }
}
