import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { InvalidInputError, PermissionDeniedError } from '@app/shared';
import { checkAgainstConfiguration } from '../../domain/profile-configuration.rules';
import { ProfileRules } from '../../domain/profile-rules';
import { checkProfileInput } from '../../domain/profile-input.rules';
import { writeScopeViolations } from '../../domain/profile-scope.rules';
import type { ProfileSubmissionResultDto } from '../../dto/profile.dto';
import { ExistingProfiles } from '../../services/existing-profiles.service';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { ProfileWriteIntake } from '../../services/profile-write-intake.service';
import { toSubmissionResult } from '../submission-result';
import { UpdateProfileCommand } from './update-profile.command';
import { PROFILE_WIRE_FORMAT } from '../../mapping/profile-wire-format';

@CommandHandler(UpdateProfileCommand)
export class UpdateProfileHandler implements ICommandHandler<UpdateProfileCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
  ) {}

  async execute(command: UpdateProfileCommand): Promise<ProfileSubmissionResultDto> {
    const { clientId, userId, profileId, body, mode, scope } = command;
    const input = body as Record<string, unknown>;
    const problems = checkProfileInput(input, mode);
    if (problems.length) throw new InvalidInputError(problems.join('; '));

    const profile = await this.existing.get(clientId, profileId);
    // Checked here against the stored values for a quick 400; the worker checks again
    // against the values stored when it applies the write (update rules are decided then).
    const vocabulary = await this.configuration.vocabulary(clientId);
    const refused = checkAgainstConfiguration(input, vocabulary, this.rules, mode, profile.data);
    if (refused.length) throw new InvalidInputError(refused.join('; '));
    const forbidden = writeScopeViolations(body, scope, PROFILE_WIRE_FORMAT, profile);
    if (forbidden.length) throw new PermissionDeniedError(forbidden.join('; '));
    await this.alternateIds.claimAll(clientId, profileId, body.AlternateIds);
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: mode,
      body,
      userId,
      scope,
      known: profile,
    });
    return toSubmissionResult(profileId, body, write);
  }
}
