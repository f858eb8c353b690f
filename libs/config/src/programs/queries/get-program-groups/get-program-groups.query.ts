import { Query } from '@nestjs/cqrs';
import type { ProgramGroupListDto } from '../../dto/program-group.dto';

export class GetProgramGroupsQuery extends Query<ProgramGroupListDto> {
  constructor(
    readonly clientId: string,
    /** 0 or absent: all groups. */
    readonly id?: number,
  ) {
    super();
  }
}
