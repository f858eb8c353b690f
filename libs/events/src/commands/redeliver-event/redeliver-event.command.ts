import { Command } from '@nestjs/cqrs';

/** Send a dead letter again (the worker's side of POST .../DeadLetters/{eventId}/Redeliver). */
export class RedeliverEventCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
    readonly eventId: string,
  ) {
    super();
  }
}
