import { Query } from '@nestjs/cqrs';
import type { TagCountsDto } from '../tag-counts.dto';

export class GetTagCountsQuery extends Query<TagCountsDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
