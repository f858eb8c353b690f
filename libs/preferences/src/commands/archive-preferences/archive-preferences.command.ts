import { Command } from '@nestjs/cqrs';
import type { RequestWindow } from '@app/shared';
import type { ArchivePreferencesDto } from '../../dto/archive-preferences.dto';
import type { CallerScope } from '@app/profiles';

/** Archive preferences of a profile; the answer says whether the worker applied it in time. */
export class ArchivePreferencesCommand extends Command<'archived' | 'pending'> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly profileId: number,
    readonly body: ArchivePreferencesDto,
    /** The request's commit window (`@WriteWindow()`): a write answered 503 never commits. */
    readonly window: RequestWindow | null,
    /** The writer's user-group scope (undefined: unrestricted): what it may archive. */
    readonly scope?: CallerScope,
  ) {
    super();
  }
}
