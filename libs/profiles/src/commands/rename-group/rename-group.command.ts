import { Command } from '@nestjs/cqrs';
import type { RenameGroupResultDto } from '../../dto/rename-group.dto';

/** Rename a group of a group type on every profile that is in it (optionally merging). */
export class RenameGroupCommand extends Command<RenameGroupResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly groupType: string,
    readonly oldGroupName: string,
    readonly newGroupName: string,
    readonly allowMerge: boolean,
  ) {
    super();
  }
}
