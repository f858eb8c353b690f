import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { hasLocalizedFields, toConsentTypeDto } from '../../mapping/consent-type.mapper';
import { ConsentTypeRepository } from '../../repositories/consent-type.repository';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';
import { GetConsentTypesQuery } from './get-consent-types.query';

@QueryHandler(GetConsentTypesQuery)
export class GetConsentTypesHandler implements IQueryHandler<GetConsentTypesQuery> {
  constructor(private readonly repository: ConsentTypeRepository) {}

  async execute({
    clientId,
    typeId,
    locale,
    latestVersionOnly,
  }: GetConsentTypesQuery): Promise<ConsentTypeListDto> {
    let stored;
    if (typeId) {
      const one = await this.repository.findOne(clientId, typeId);
      if (!one) throw new NotFoundError(`Consent type ${typeId} was not found`);
      stored = [one];
    } else {
      stored = await this.repository.list(clientId);
    }
    const types = stored.map((type) => toConsentTypeDto(type, { locale, latestVersionOnly }));
    if (locale !== undefined && !types.some(hasLocalizedFields)) {
      throw new NotFoundError(`No consent type has localized fields for locale "${locale}"`);
    }
    return { ConsentTypes: types };
  }
}
