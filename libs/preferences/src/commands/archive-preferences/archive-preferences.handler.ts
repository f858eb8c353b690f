import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError, NotFoundError, PermissionDeniedError, Settings } from '@app/shared';
import { canSeeProgram, ProfileWriteQueue, writerView } from '@app/profiles';
import {
  archiveRequestProblems,
  type ArchivePreferencesWrite,
} from '../../domain/preference-archive';
import type { ArchivePreferencesDto } from '../../dto/archive-preferences.dto';
import { ArchivePreferencesCommand } from './archive-preferences.command';

/**
 * An archival is a queued `archive-preferences` write, so it applies to the profile as the
 * writes accepted before it leave it; the request waits for it like a DELETE, up to
 * SYNC_WRITE_TIMEOUT_MS. The writer's scope is stored with the write: the worker archives
 * only preferences of programs the writer's user group may see.
 */
@CommandHandler(ArchivePreferencesCommand)
export class ArchivePreferencesHandler implements ICommandHandler<ArchivePreferencesCommand> {
  constructor(
    private readonly profiles: ProfileWriteQueue,
    private readonly settings: Settings,
  ) {}

  async execute({
    clientId,
    userId,
    profileId,
    body,
    scope,
    window,
  }: ArchivePreferencesCommand): Promise<'archived' | 'pending'> {
    const request = toWrite(body);
    const problems = archiveRequestProblems(request);
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    // Naming a program outside the user group's scope is refused, as in a profile write.
    const view = writerView(scope);
    const outside = (request.ProfilePreferences ?? [])
      .map((item, index) => ({ item, index }))
      .filter(({ item }) => item.ProgramId && !canSeeProgram(view, item.ProgramId))
      .map(
        ({ item, index }) =>
          `ProfilePreferences[${index}].ProgramId (value ${JSON.stringify(item.ProgramId)}) is outside your user group's permissions`,
      );
    if (outside.length) throw new PermissionDeniedError(outside.join('; '));

    const result = await this.profiles.submitAndWait(
      { clientId, profileId, kind: 'archive-preferences', body: request, userId, scope, window },
      this.settings.syncWriteTimeoutMs,
    );
    if (result.status === 'failed') {
      const { reason } = result;
      if (reason === 'The profile was deleted' || reason === 'No such profile')
        throw new NotFoundError(`Profile ${profileId} was not found`);
      throw new InvalidInputError(`The archival was refused: ${reason ?? 'unknown reason'}`);
    }
    return result.status === 'applied' ? 'archived' : 'pending';
  }
}

/** The stored write: the body without the read-only PhoneNumberNumeric (never a selector). */
function toWrite(body: ArchivePreferencesDto): ArchivePreferencesWrite {
  const { PhoneNumbers, ...rest } = body;
  return {
    ...rest,
    ...(PhoneNumbers && {
      PhoneNumbers: PhoneNumbers.map(({ PhoneNumberNumeric: _ignored, ...phone }) => phone),
    }),
  };
}
