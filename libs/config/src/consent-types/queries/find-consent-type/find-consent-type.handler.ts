import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { type ConsentTypeSummary, FindConsentTypeQuery } from '../../../common/cross-area';
import { ConsentTypeCatalog } from '../../services/consent-type-catalog.service';

/** For other areas: the consent type of that name (case-insensitive), or null. */
@QueryHandler(FindConsentTypeQuery)
export class FindConsentTypeHandler implements IQueryHandler<FindConsentTypeQuery> {
  constructor(private readonly catalog: ConsentTypeCatalog) {}

  execute({ clientId, typeName }: FindConsentTypeQuery): Promise<ConsentTypeSummary | null> {
    return this.catalog.findByName(clientId, typeName);
  }
}
