import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../../domain/profile-view';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../wire/profile.dto';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';

/**
 * POST by alternate id (`upsert`: merge into the profile holding the pair, else create
 * one with the pair) and PUT by alternate id (`overwrite` the holder; 404 without one).
 */
export class WriteProfileByAlternateIdCommand extends Command<ProfileSubmissionResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly pair: AlternateIdPair,
    readonly body: ProfileDto,
    readonly mode: 'upsert' | 'overwrite',
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The writer's user-group scope (undefined: unrestricted); see profile-scope.rules. */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
