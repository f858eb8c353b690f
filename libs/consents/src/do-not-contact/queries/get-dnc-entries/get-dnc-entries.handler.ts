import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { DncEntriesDto } from '../../dto/do-not-contact.dto';
import { toDncEntryDto } from '../../dnc.mapper';
import { DncRepository } from '../../dnc.repository';
import { GetDncEntriesQuery } from './get-dnc-entries.query';

/** A page of a list's entries in key order; removed ones show until a later re-add. */
@QueryHandler(GetDncEntriesQuery)
export class GetDncEntriesHandler implements IQueryHandler<GetDncEntriesQuery> {
  constructor(private readonly repository: DncRepository) {}

  async execute({ clientId, listId, after, limit }: GetDncEntriesQuery): Promise<DncEntriesDto> {
    if (!(await this.repository.findList(clientId, listId)))
      throw new NotFoundError(`Do-not-contact list ${listId} was not found`);
    const page = await this.repository.entriesOf(clientId, listId, after, limit + 1);
    const entries = page.slice(0, limit);
    return {
      Entries: entries.map(toDncEntryDto),
      ...(page.length > limit ? { Next: entries[entries.length - 1].key } : {}),
    };
  }
}
