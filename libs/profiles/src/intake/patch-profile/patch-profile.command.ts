import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { CallerScope } from '../../domain/profile-view';
import type { ProfilePatchOperation } from '../../domain/profile-patch';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../wire/profile.dto';
import type { AlternateIdPair } from '../../persistence/alternate-id-claims.service';

/** 200 with the patched profile, or 202 when the write is still queued after the wait bound. */
export type PatchProfileOutcome =
  | { status: 'applied'; profile: ProfileDto }
  | { status: 'pending'; result: ProfileSubmissionResultDto };

/**
 * JSON Patch on a profile named by id or by an alternate id pair. The operations are
 * already checked and ordered (replace before remove); the worker applies them in the
 * profile's write order.
 */
export class PatchProfileCommand extends Command<PatchProfileOutcome> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly target: { profileId: number } | { pair: AlternateIdPair },
    readonly operations: ProfilePatchOperation[],
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The writer's user-group scope (undefined: unrestricted); see profile-scope.rules. */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
