import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../../domain/profile-view';
import type { WriteMode } from '../../domain/apply-profile-write';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../wire/profile.dto';

/** Merge (POST by id: only what the body names changes) or overwrite (PUT by id). */
export class UpdateProfileCommand extends Command<ProfileSubmissionResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly profileId: number,
    readonly body: ProfileDto,
    readonly mode: WriteMode,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The writer's user-group scope (undefined: unrestricted); see profile-scope.rules. */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
