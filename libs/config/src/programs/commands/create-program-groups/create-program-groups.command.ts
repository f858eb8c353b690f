import { Command } from '@nestjs/cqrs';
import type { ProgramGroupDto, ProgramGroupListDto } from '../../dto/program-group.dto';

/** Creates program groups, all or nothing. */
export class CreateProgramGroupsCommand extends Command<ProgramGroupListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly groups: ProgramGroupDto[],
  ) {
    super();
  }
}
