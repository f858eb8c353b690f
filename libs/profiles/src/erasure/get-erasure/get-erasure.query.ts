import { Query } from '@nestjs/cqrs';
import type { ErasureTombstoneDto } from '../data-subject.dto';

/** The audit tombstone an erasure of the profile left (404 when it was never erased). */
export class GetErasureQuery extends Query<ErasureTombstoneDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
