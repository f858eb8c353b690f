import { Command } from '@nestjs/cqrs';

/** Queue the deliveries of a resumed subscription's paused period (event-replay). */
export class ReplayPausedEventsCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
