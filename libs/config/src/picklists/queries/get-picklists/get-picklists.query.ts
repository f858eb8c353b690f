import { Query } from '@nestjs/cqrs';
import type { PicklistListDto } from '../../dto/picklist.dto';

export class GetPicklistsQuery extends Query<PicklistListDto> {
  constructor(
    readonly clientId: string,
    /** 0: all picklists. */
    readonly picklistId: number,
    readonly locale?: string,
  ) {
    super();
  }
}
