import { Command } from '@nestjs/cqrs';

/** Deliver the profile's events the subscription has not received yet (event-delivery). */
export class DeliverProfileEventsCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
    readonly profileId: number,
    readonly busy = 0,
  ) {
    super();
  }
}
