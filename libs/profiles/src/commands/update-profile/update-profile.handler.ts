import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { checkProfileInput } from '../../domain/profile-input.rules';
import type { ProfileSubmissionResultDto } from '../../dto/profile.dto';
import { ExistingProfiles } from '../../services/existing-profiles.service';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { ProfileWriteIntake } from '../../services/profile-write-intake.service';
import { toSubmissionResult } from '../submission-result';
import { UpdateProfileCommand } from './update-profile.command';

@CommandHandler(UpdateProfileCommand)
export class UpdateProfileHandler implements ICommandHandler<UpdateProfileCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
  ) {}

  async execute(command: UpdateProfileCommand): Promise<ProfileSubmissionResultDto> {
    const { clientId, userId, profileId, body, mode } = command;
    const problems = checkProfileInput(body as Record<string, unknown>, mode);
    if (problems.length) throw ApiError.badRequest(problems.join('; '));

    const profile = await this.existing.get(clientId, profileId);
    await this.alternateIds.claimAll(clientId, profileId, body.AlternateIds);
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: mode,
      body,
      userId,
    });
    return toSubmissionResult(profileId, body, write);
  }
}
