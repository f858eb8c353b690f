import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { RenameGroupResultDto } from '../rename-group.dto';

/** Rename a group of a group type on every profile that is in it (optionally merging). */
export class RenameGroupCommand extends Command<RenameGroupResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly groupType: string,
    readonly oldGroupName: string,
    readonly newGroupName: string,
    readonly allowMerge: boolean,
    /**
     * The request's commit window (`@WriteWindow()`), shared by the writes of every profile:
     * a request answered 503 commits none after it.
     */
    readonly window: RequestWindow | null,
  ) {
    super();
  }
}
