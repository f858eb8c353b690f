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
    let stored;
    if (picklistId) {
      const one = await this.repository.findOne(clientId, picklistId);
      if (!one) throw new NotFoundError(`Picklist ${picklistId} was not found`);
      stored = [one];
    } else {
      stored = await this.repository.list(clientId);
    }
    const picklists = stored.map((picklist) => toPicklistDto(picklist, locale));
    if (locale !== undefined && !picklists.some(hasLocalizedNames)) {
      throw new NotFoundError(`No picklist has localized names for locale "${locale}"`);
    }
    return { Picklists: picklists };
  }
}
