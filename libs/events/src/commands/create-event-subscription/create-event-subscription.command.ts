import { Command } from '@nestjs/cqrs';
import type { ClientQuotas } from '@app/shared';
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
    /** The caller's client's own quotas, as authentication loaded them (its subscriptions). */
    readonly quotas: ClientQuotas,
  ) {
    super();
  }
}
