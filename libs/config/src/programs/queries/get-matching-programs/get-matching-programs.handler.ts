import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { matchProgram, parseCriteria } from '../../domain/custom-property-matching';
import type { ProgramListDto } from '../../dto/program.dto';
import { toProgramDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { GetMatchingProgramsQuery } from './get-matching-programs.query';

@QueryHandler(GetMatchingProgramsQuery)
export class GetMatchingProgramsHandler implements IQueryHandler<GetMatchingProgramsQuery> {
  constructor(private readonly programs: ProgramRepository) {}

  async execute({ clientId, query, mode }: GetMatchingProgramsQuery): Promise<ProgramListDto> {
    const criteria = parseCriteria(query);
    const programs = await this.programs.listAll(clientId);
    return {
      Programs: programs
        .map((program) => matchProgram(program, criteria))
        .filter((match) => match.returned)
        .map((match) =>
          toProgramDto(match.program, mode === 'matching' ? match.matchingFilters : undefined),
        ),
    };
  }
}
