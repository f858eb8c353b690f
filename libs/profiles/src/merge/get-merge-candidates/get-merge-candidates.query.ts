import { Query } from '@nestjs/cqrs';
import type { MergeCandidatesDto } from '../merge-candidates.dto';

export class GetMergeCandidatesQuery extends Query<MergeCandidatesDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
