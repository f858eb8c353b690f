import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError, Settings } from '@app/shared';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ProfileWriteIntake } from '../profile-write-intake.service';
import { DeleteProfileCommand } from './delete-profile.command';

/**
 * A delete goes through the same queue as every other write (so it cannot overtake
 * writes accepted before it) and the request waits for it, up to SYNC_WRITE_TIMEOUT_MS.
 */
@CommandHandler(DeleteProfileCommand)
export class DeleteProfileHandler implements ICommandHandler<DeleteProfileCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly intake: ProfileWriteIntake,
    private readonly settings: Settings,
  ) {}

  async execute({
    clientId,
    userId,
    profileId,
    reasonCode,
    window,
  }: DeleteProfileCommand): Promise<'deleted' | 'pending'> {
    const known = await this.existing.get(clientId, profileId);
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'delete',
      body: reasonCode ? { ReasonCode: reasonCode } : undefined,
      userId,
      known,
      window,
    });
    const status = await this.intake.waitFor(write, this.settings.syncWriteTimeoutMs);
    if (status === 'failed') throw new NotFoundError(`Profile ${profileId} was not found`);
    return status === 'applied' ? 'deleted' : 'pending';
  }
}
