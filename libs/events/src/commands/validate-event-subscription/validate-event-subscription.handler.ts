import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, NotFoundError } from '@app/shared';
import {
  type EventSubscription,
  pendingHandshake,
  subscriptionNotFound,
} from '../../domain/event-subscription';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { Handshakes } from '../../services/handshakes.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { ValidateEventSubscriptionCommand } from './validate-event-subscription.command';

/**
 * Starts a new handshake whatever the current status: Pending under a new nonce (so a job
 * of the handshake before ends unheard), then its first attempt is queued.
 */
@CommandHandler(ValidateEventSubscriptionCommand)
export class ValidateEventSubscriptionHandler implements ICommandHandler<ValidateEventSubscriptionCommand> {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly handshakes: Handshakes,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    userId,
    subscriptionId,
  }: ValidateEventSubscriptionCommand): Promise<EventSubscriptionDto> {
    const now = this.clock.now();
    const pending = await this.store.change(clientId, (list) => {
      const current = list.find(subscriptionId);
      if (!current) throw new NotFoundError(subscriptionNotFound(subscriptionId));
      const pending: EventSubscription = {
        ...current,
        ...pendingHandshake(),
        modifiedAt: now,
        modifiedBy: userId,
      };
      list.replace(pending);
      return pending;
    });
    await this.handshakes.start(clientId, pending);
    return toEventSubscriptionDto(pending);
  }
}
