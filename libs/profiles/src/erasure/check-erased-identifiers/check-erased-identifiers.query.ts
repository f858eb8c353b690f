import { Query } from '@nestjs/cqrs';
import type { ErasedIdentifierCheckDto, ErasedIdentifierCheckResultDto } from '../data-subject.dto';

/** Which of the identifiers an erased profile of the client held. */
export class CheckErasedIdentifiersQuery extends Query<ErasedIdentifierCheckResultDto> {
  constructor(
    readonly clientId: string,
    readonly body: ErasedIdentifierCheckDto,
  ) {
    super();
  }
}
