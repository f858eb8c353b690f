import { Query } from '@nestjs/cqrs';
import type { MatchMode } from '../../domain/custom-property-matching';
import type { ProgramGroupTreeListDto } from '../../dto/program-group.dto';

/** Program group trees by custom property criteria (IncludeMatching / IncludeAll). */
export class GetMatchingProgramGroupsQuery extends Query<ProgramGroupTreeListDto> {
  constructor(
    readonly clientId: string,
    readonly query: Record<string, unknown>,
    readonly mode: MatchMode,
  ) {
    super();
  }
}
