import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { Clock, NotFoundError } from '@app/shared';
import {
  type EventSubscription,
  newSecret,
  SECRET_OVERLAP_MS,
  subscriptionNotFound,
} from '../../domain/event-subscription';
import type { EventSubscriptionDto } from '../../dto/event-subscription.dto';
import { toEventSubscriptionDto } from '../../mapping/event-subscription.mapper';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { RotateEventSubscriptionSecretCommand } from './rotate-event-subscription-secret.command';

/**
 * The current secret becomes the previous one, valid until now + 24 h: deliveries meanwhile
 * carry a signature by each (Standard Webhooks lists several in webhook-signature), so a
 * receiver can switch without losing one. A second rotation within the 24 h replaces the
 * previous secret by the one it rotates out (two secrets at most).
 */
@CommandHandler(RotateEventSubscriptionSecretCommand)
export class RotateEventSubscriptionSecretHandler implements ICommandHandler<RotateEventSubscriptionSecretCommand> {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly clock: Clock,
  ) {}

  async execute({
    clientId,
    userId,
    subscriptionId,
  }: RotateEventSubscriptionSecretCommand): Promise<EventSubscriptionDto> {
    const now = this.clock.now();
    const rotated = await this.store.change(clientId, (list) => {
      const current = list.find(subscriptionId);
      if (!current) throw new NotFoundError(subscriptionNotFound(subscriptionId));
      const rotated: EventSubscription = {
        ...current,
        secret: newSecret(),
        previousSecret: current.secret,
        previousSecretUntil: new Date(now.getTime() + SECRET_OVERLAP_MS),
        modifiedAt: now,
        modifiedBy: userId,
      };
      list.replace(rotated);
      return rotated;
    });
    return toEventSubscriptionDto(rotated, { withSecret: true });
  }
}
