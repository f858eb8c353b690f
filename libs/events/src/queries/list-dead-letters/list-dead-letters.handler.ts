import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { subscriptionNotFound } from '../../domain/event-subscription';
import type { DeadLetterListDto } from '../../dto/dead-letter.dto';
import { toDeadLetterDto } from '../../mapping/dead-letter.mapper';
import { DeadLetters } from '../../services/dead-letters.service';
import { SubscriptionStore } from '../../services/subscription-store.service';
import { ListDeadLettersQuery } from './list-dead-letters.query';

/** The subscription is looked up in the caller's own list first (404 as unknown). */
@QueryHandler(ListDeadLettersQuery)
export class ListDeadLettersHandler implements IQueryHandler<ListDeadLettersQuery> {
  constructor(
    private readonly store: SubscriptionStore,
    private readonly deadLetters: DeadLetters,
  ) {}

  async execute({ clientId, subscriptionId }: ListDeadLettersQuery): Promise<DeadLetterListDto> {
    if (!(await this.store.find(clientId, subscriptionId))) {
      throw new NotFoundError(subscriptionNotFound(subscriptionId));
    }
    const letters = (await this.deadLetters.list(clientId, subscriptionId)).map(toDeadLetterDto);
    return { Count: letters.length, DeadLetters: letters };
  }
}
