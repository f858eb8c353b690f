import { Query } from '@nestjs/cqrs';
import type { DncEntriesDto } from '../../dto/do-not-contact.dto';

export class GetDncEntriesQuery extends Query<DncEntriesDto> {
  constructor(
    readonly clientId: string,
    readonly listId: number,
    /** The `Next` of the previous page ('' for the first). */
    readonly after: string,
    readonly limit: number,
  ) {
    super();
  }
}
