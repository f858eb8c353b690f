import { Query } from '@nestjs/cqrs';
import type { DncListsDto } from '../../dto/do-not-contact.dto';

export class GetDncListsQuery extends Query<DncListsDto> {
  constructor(readonly clientId: string) {
    super();
  }
}
