import type { CriteriaQuery } from '../../domain/custom-property-matching';
import { Query } from '@nestjs/cqrs';
import type { MatchMode } from '../../domain/custom-property-matching';
import type { ProgramGroupTreeListDto } from '../../dto/program-group.dto';

/** Program group trees by custom property criteria (IncludeMatching / IncludeAll). */
export class GetMatchingProgramGroupsQuery extends Query<ProgramGroupTreeListDto> {
  constructor(
    readonly clientId: string,
    readonly query: CriteriaQuery,
    readonly mode: MatchMode,
  ) {
    super();
  }
}
