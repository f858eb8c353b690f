import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  type GroupMatch,
  type MatchMode,
  matchProgramGroups,
  parseCriteria,
} from '../../domain/custom-property-matching';
import type { StoredProgramGroup } from '../../domain/program-group.schema';
import type { StoredProgram } from '../../domain/program.schema';
import type { ProgramGroupTreeDto, ProgramGroupTreeListDto } from '../../dto/program-group.dto';
import { toProgramGroupTreeDto } from '../../mapping/program-group.mapper';
import { toProgramDto } from '../../mapping/program.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { ProgramRepository } from '../../repositories/program.repository';
import { GetMatchingProgramGroupsQuery } from './get-matching-program-groups.query';

type Match = GroupMatch<StoredProgramGroup, StoredProgram>;

/** IncludeMatching keeps only returned nested entries and matching filters; IncludeAll all. */
function render(match: Match, mode: MatchMode): ProgramGroupTreeDto {
  const groups = mode === 'matching' ? match.groups.filter((g) => g.returned) : match.groups;
  const programs = mode === 'matching' ? match.programs.filter((p) => p.returned) : match.programs;
  return toProgramGroupTreeDto(
    match.group,
    groups.map((group) => render(group, mode)),
    programs.map((program) =>
      toProgramDto(program.program, mode === 'matching' ? program.matchingFilters : undefined),
    ),
  );
}

@QueryHandler(GetMatchingProgramGroupsQuery)
export class GetMatchingProgramGroupsHandler implements IQueryHandler<GetMatchingProgramGroupsQuery> {
  constructor(
    private readonly groups: ProgramGroupRepository,
    private readonly programs: ProgramRepository,
  ) {}

  async execute({
    clientId,
    query,
    mode,
  }: GetMatchingProgramGroupsQuery): Promise<ProgramGroupTreeListDto> {
    const criteria = parseCriteria(query);
    const [groups, programs] = await Promise.all([
      this.groups.listAll(clientId),
      this.programs.listAll(clientId),
    ]);
    const byId = new Map(programs.map((program) => [program.programId, program]));
    return {
      ProgramGroups: matchProgramGroups(groups, byId, criteria).map((match) => render(match, mode)),
    };
  }
}
