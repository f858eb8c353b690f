import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../../domain/profile-view';
import type { MergeProfileDto, MergeSubmissionResultDto } from '../merge-profile.dto';

/** What a merge request answers: the result, and whether it repeats an earlier merge (200). */
export interface MergeAnswer {
  result: MergeSubmissionResultDto;
  repeated: boolean;
}

/** POST .../Profile/{survivorId}/Merge: the survivor absorbs another profile (docs/profile-merge.md). */
export class MergeProfilesCommand extends Command<MergeAnswer> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly survivorId: number,
    readonly body: MergeProfileDto,
    /** Whether the caller's group may write profiles (a merge writes both). */
    readonly writesProfiles: boolean,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The caller's user-group scope (undefined: unrestricted). */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
