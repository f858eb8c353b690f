import { Query } from '@nestjs/cqrs';
import type { DeadLetterListDto } from '../../dto/dead-letter.dto';

/** A subscription's dead letters, oldest first. */
export class ListDeadLettersQuery extends Query<DeadLetterListDto> {
  constructor(
    readonly clientId: string,
    readonly subscriptionId: string,
  ) {
    super();
  }
}
