import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { EraseWrite } from '../../domain/profile-erasure';
import type { ProfileSubmissionResultDto } from '../../wire/profile.dto';

/** A data subject's erasure, queued behind the profile's earlier writes (202). */
export class EraseProfileCommand extends Command<ProfileSubmissionResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly profileId: number,
    readonly request: EraseWrite,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
  ) {
    super();
  }
}
