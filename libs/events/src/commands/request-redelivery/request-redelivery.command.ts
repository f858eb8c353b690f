import { Command } from '@nestjs/cqrs';
import type { DeadLetterDto } from '../../dto/dead-letter.dto';

/** POST .../DeadLetters/{eventId}/Redeliver: queue the dead letter's redelivery. */
export class RequestRedeliveryCommand extends Command<DeadLetterDto> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
    readonly eventId: string,
  ) {
    super();
  }
}
