import type { CriteriaQuery } from '../../domain/custom-property-matching';
import { Query } from '@nestjs/cqrs';
import type { MatchMode } from '../../domain/custom-property-matching';
import type { ProgramListDto } from '../../dto/program.dto';

/** Programs by custom property criteria (IncludeMatching / IncludeAll). */
export class GetMatchingProgramsQuery extends Query<ProgramListDto> {
  constructor(
    readonly clientId: string,
    readonly query: CriteriaQuery,
    readonly mode: MatchMode,
  ) {
    super();
  }
}
