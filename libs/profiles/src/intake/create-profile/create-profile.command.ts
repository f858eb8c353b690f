import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../../domain/profile-view';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../wire/profile.dto';

export class CreateProfileCommand extends Command<ProfileSubmissionResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: ProfileDto,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The writer's user-group scope (undefined: unrestricted); see profile-scope.rules. */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
