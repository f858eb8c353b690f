import { Command } from '@nestjs/cqrs';
import type {
  EventSubscriptionBodyDto,
  EventSubscriptionDto,
} from '../../dto/event-subscription.dto';

/** Create: a new subscription (Pending), its secret answered once, its handshake queued. */
export class CreateEventSubscriptionCommand extends Command<EventSubscriptionDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: EventSubscriptionBodyDto,
  ) {
    super();
  }
}
