import { Command } from '@nestjs/cqrs';
import type { ProgramListDto } from '../../dto/program.dto';

/** Applies PATCH operations to a program's wire shape (its filters included). */
export class UpdateProgramCommand extends Command<ProgramListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly programId: number,
    readonly operations: unknown,
  ) {
    super();
  }
}
