import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { subscriptionNotFound } from '../../domain/event-subscription';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { DeleteEventSubscriptionCommand } from './delete-event-subscription.command';

/** Removes the subscription from the client's list; 404 when the client has none of that id. */
@CommandHandler(DeleteEventSubscriptionCommand)
export class DeleteEventSubscriptionHandler implements ICommandHandler<DeleteEventSubscriptionCommand> {
  constructor(private readonly store: SubscriptionStore) {}

  async execute({ clientId, subscriptionId }: DeleteEventSubscriptionCommand): Promise<void> {
    await this.store.change(clientId, (list) => {
      if (!list.remove(subscriptionId)) {
        throw new NotFoundError(subscriptionNotFound(subscriptionId));
      }
    });
  }
}
