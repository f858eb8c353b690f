import { Query } from '@nestjs/cqrs';
import type { TagCountsDto } from '../../dto/tag-counts.dto';

export class GetTagCountsQuery extends Query<TagCountsDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
