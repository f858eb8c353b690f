import { Command } from '@nestjs/cqrs';
import type { ProgramGroupListDto } from '../../dto/program-group.dto';

/** Applies PATCH operations to a program group's wire shape. */
export class UpdateProgramGroupCommand extends Command<ProgramGroupListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly groupId: number,
    readonly operations: unknown,
  ) {
    super();
  }
}
