import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { PicklistListDto } from '../../dto/picklist.dto';
import { hasLocalizedNames, toPicklistDto } from '../../mapping/picklist.mapper';
import { PicklistRepository } from '../../repositories/picklist.repository';
import { GetPicklistsQuery } from './get-picklists.query';

@QueryHandler(GetPicklistsQuery)
export class GetPicklistsHandler implements IQueryHandler<GetPicklistsQuery> {
  constructor(private readonly repository: PicklistRepository) {}

  async execute({ clientId, picklistId, locale }: GetPicklistsQuery): Promise<PicklistListDto> {
    const stored = await this.repository.listOrOne(clientId, picklistId, 'Picklist');
    const picklists = stored.map((picklist) => toPicklistDto(picklist, locale));
    if (locale !== undefined && !picklists.some(hasLocalizedNames)) {
      throw new NotFoundError(`No picklist has localized names for locale "${locale}"`);
    }
    return { Picklists: picklists };
  }
}
