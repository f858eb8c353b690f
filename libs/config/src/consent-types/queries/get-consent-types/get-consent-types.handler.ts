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
    const stored = await this.repository.listOrOne(clientId, typeId, 'Consent type');
    const types = stored.map((type) => toConsentTypeDto(type, { locale, latestVersionOnly }));
    if (locale !== undefined && !types.some(hasLocalizedFields)) {
      throw new NotFoundError(`No consent type has localized fields for locale "${locale}"`);
    }
    return { ConsentTypes: types };
  }
}
