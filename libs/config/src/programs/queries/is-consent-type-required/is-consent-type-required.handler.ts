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

  async execute({ clientId, typeNames }: IsConsentTypeRequiredQuery): Promise<boolean> {
    for (const typeName of typeNames) {
      if (await this.programs.anyRequires(clientId, typeName.trim())) return true;
    }
    return false;
  }
}
