import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { JobQueue, NotFoundError } from '@app/shared';
import { subscriptionNotFound } from '../../domain/event-subscription';
import type { DeadLetterDto } from '../../dto/dead-letter.dto';
import { toDeadLetterDto } from '../../mapping/dead-letter.mapper';
import { DeadLetters } from '../../services/dead-letters.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { REDELIVER_EVENT } from '../../worker/event.job-definitions';
import { RequestRedeliveryCommand } from './request-redelivery.command';

/**
 * Queues one attempt at sending the dead letter again (the worker's RedeliverEventHandler),
 * whatever the subscription's state: it is asked for by name. Answers the dead letter.
 */
@CommandHandler(RequestRedeliveryCommand)
export class RequestRedeliveryHandler implements ICommandHandler<RequestRedeliveryCommand> {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly deadLetters: DeadLetters,
    private readonly queue: JobQueue,
  ) {}

  async execute({
    clientId,
    subscriptionId,
    eventId,
  }: RequestRedeliveryCommand): Promise<DeadLetterDto> {
    if (!(await this.store.find(clientId, subscriptionId))) {
      throw new NotFoundError(subscriptionNotFound(subscriptionId));
    }
    const letter = (await this.deadLetters.list(clientId, subscriptionId)).find(
      (kept) => kept.eventId === eventId,
    );
    if (!letter) {
      throw new NotFoundError(
        `Subscription ${subscriptionId} has no dead letter of event "${eventId}"`,
      );
    }
    await this.queue.enqueue(REDELIVER_EVENT, { clientId, subscriptionId, eventId });
    return toDeadLetterDto(letter);
  }
}
