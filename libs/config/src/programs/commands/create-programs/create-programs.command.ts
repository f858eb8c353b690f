import { Command } from '@nestjs/cqrs';
import type { ProgramDto, ProgramListDto } from '../../dto/program.dto';

/** Creates programs with their filters, all or nothing. */
export class CreateProgramsCommand extends Command<ProgramListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly programs: ProgramDto[],
  ) {
    super();
  }
}
