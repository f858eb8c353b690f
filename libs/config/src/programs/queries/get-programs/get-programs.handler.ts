import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { InvalidInputError } from '@app/shared';
import { canonicalProgramType, PROGRAM_TYPE_INPUTS } from '../../domain/program-vocabulary';
import { limitToLocale } from '../../mapping/text-tag-selection';
import type { ProgramListDto } from '../../dto/program.dto';
import { toProgramDto } from '../../mapping/program.mapper';
import { ProgramRepository } from '../../repositories/program.repository';
import { GetProgramsQuery } from './get-programs.query';

@QueryHandler(GetProgramsQuery)
export class GetProgramsHandler implements IQueryHandler<GetProgramsQuery> {
  constructor(private readonly programs: ProgramRepository) {}

  async execute({ clientId, options }: GetProgramsQuery): Promise<ProgramListDto> {
    let stored = await this.programs.listOrOne(clientId, options.id);
    if (options.programType !== undefined) {
      const type = canonicalProgramType(options.programType);
      if (!type) {
        throw new InvalidInputError(
          `Invalid programTypeId (value ${JSON.stringify(options.programType)}): must be one of ${PROGRAM_TYPE_INPUTS.join(', ')}`,
        );
      }
      stored = stored.filter((program) => program.ProgramType === type);
    }
    let programs = stored.map((program) => toProgramDto(program));
    if (options.locale) {
      programs = limitToLocale(programs, options.locale.value, options.locale.parameter);
    }
    return { Programs: programs };
  }
}
