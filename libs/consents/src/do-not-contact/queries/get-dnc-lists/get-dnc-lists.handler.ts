import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { DncListsDto } from '../../dto/do-not-contact.dto';
import { toDncListDto } from '../../dnc.mapper';
import { DncRepository } from '../../dnc.repository';
import { GetDncListsQuery } from './get-dnc-lists.query';

@QueryHandler(GetDncListsQuery)
export class GetDncListsHandler implements IQueryHandler<GetDncListsQuery> {
  constructor(private readonly repository: DncRepository) {}

  async execute({ clientId }: GetDncListsQuery): Promise<DncListsDto> {
    return { DoNotContactLists: (await this.repository.listsOf(clientId)).map(toDncListDto) };
  }
}
