import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { EraseWrite } from '../../domain/profile-erasure';
import type { ProfileSubmissionResultDto } from '../../wire/profile.dto';
import { UPDATE_STATUS } from '../../wire/profile.mapper';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ProfileWriteIntake } from '../../intake/profile-write-intake.service';
import { EraseProfileCommand } from './erase-profile.command';

/**
 * Accepts an erasure as a queued write of kind `erase` (docs/data-subject.md): it takes
 * the next sequence number, so it applies after every write accepted before it and before
 * any accepted after it; the worker erases (ProfileEraser) and saves the tombstone. The
 * answer does not wait: 202 with the submission result (the erasure shows in .../Updates
 * until it applies; then the profile is a 404).
 */
@CommandHandler(EraseProfileCommand)
export class EraseProfileHandler implements ICommandHandler<EraseProfileCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly intake: ProfileWriteIntake,
  ) {}

  async execute({
    clientId,
    userId,
    profileId,
    request,
    window,
  }: EraseProfileCommand): Promise<ProfileSubmissionResultDto> {
    const known = await this.existing.get(clientId, profileId);
    const body: EraseWrite = {
      ReasonCode: request.ReasonCode,
      ...(request.Note !== undefined ? { Note: request.Note } : {}),
    };
    // The profiles it absorbed by merges hold the person's data too (docs/profile-merge.md):
    // each is erased first (an erasure is the one write a merged profile still applies).
    for (const absorbedId of known.absorbed ?? []) {
      const absorbed = await this.existing.findAny(clientId, absorbedId);
      if (absorbed?.state !== 'merged') continue;
      await this.intake.accept({
        clientId,
        profileId: absorbedId,
        kind: 'erase',
        body,
        userId,
        known: absorbed,
        window,
      });
    }
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'erase',
      body,
      userId,
      known,
      window,
    });
    return {
      AlternateId: null,
      AlternateIdType: null,
      ProfileId: profileId,
      UpdateStatus: UPDATE_STATUS.pending,
      SubmittedUtcTime: write.acceptedAt.toISOString(),
    };
  }
}
