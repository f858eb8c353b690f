import { Command } from '@nestjs/cqrs';

/** Delete: the subscription is gone (a pending handshake of it then ends unheard). */
export class DeleteEventSubscriptionCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
