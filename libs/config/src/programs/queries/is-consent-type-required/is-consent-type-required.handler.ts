import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { IsConsentTypeRequiredQuery } from '../../../common/cross-area';
import { ProgramRepository } from '../../repositories/program.repository';

/**
 * For consent-types: does any filter of the client (active or not) require the consent
 * type (TypeName compared case-insensitively)? While one does, its ChannelId is locked.
 */
@QueryHandler(IsConsentTypeRequiredQuery)
export class IsConsentTypeRequiredHandler implements IQueryHandler<IsConsentTypeRequiredQuery> {
  constructor(private readonly programs: ProgramRepository) {}

  execute({ clientId, typeName }: IsConsentTypeRequiredQuery): Promise<boolean> {
    return this.programs.anyRequires(clientId, typeName.trim());
  }
}
