import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { toConsentTypeRevisionDto } from '../../mapping/consent-type.mapper';
import { ConsentTypeRepository } from '../../repositories/consent-type.repository';
import type { ConsentTypeHistoryDto } from '../../dto/consent-type.dto';
import { GetConsentTypeHistoryQuery } from './get-consent-type-history.query';

/** Every revision of one consent type, newest first: renames, versions, (de)activations. */
@QueryHandler(GetConsentTypeHistoryQuery)
export class GetConsentTypeHistoryHandler implements IQueryHandler<GetConsentTypeHistoryQuery> {
  constructor(private readonly repository: ConsentTypeRepository) {}

  async execute({ clientId, typeId }: GetConsentTypeHistoryQuery): Promise<ConsentTypeHistoryDto> {
    const revisions = await this.repository.revisions(clientId, typeId);
    if (!revisions.length) throw new NotFoundError(`Consent type ${typeId} was not found`);
    return { ConsentTypeHistory: revisions.map(toConsentTypeRevisionDto) };
  }
}
