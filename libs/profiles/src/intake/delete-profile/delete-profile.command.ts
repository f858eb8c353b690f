import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';

/** Permanent delete; the answer says whether the worker applied it within the wait bound. */
export class DeleteProfileCommand extends Command<'deleted' | 'pending'> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly profileId: number,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    readonly reasonCode?: string,
  ) {
    super();
  }
}
