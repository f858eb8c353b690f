import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { InvalidInputError, PermissionDeniedError } from '@app/shared';
import { checkAgainstConfiguration } from '../../domain/profile-configuration.rules';
import { ProfileRules } from '../../domain/profile-rules';
import { checkProfileInput } from '../../domain/profile-input.rules';
import { writeScopeViolations } from '../../domain/profile-scope.rules';
import type { ProfileSubmissionResultDto } from '../../wire/profile.dto';
import { ProfileRepository } from '../../persistence/profile.repository';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import { ProfileWriteIntake } from '../profile-write-intake.service';
import { toSubmissionResult } from '../submission-result';
import { CreateProfileCommand } from './create-profile.command';
import { PROFILE_WIRE_FORMAT } from '../../wire/profile-wire-format';
import { profileBodyOf } from '../../wire/profile-body.mapper';

@CommandHandler(CreateProfileCommand)
export class CreateProfileHandler implements ICommandHandler<CreateProfileCommand> {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
  ) {}

  async execute({
    clientId,
    userId,
    body,
    scope,
    window,
  }: CreateProfileCommand): Promise<ProfileSubmissionResultDto> {
    const input = profileBodyOf(body);
    const problems = checkProfileInput(input, 'create');
    const vocabulary = await this.configuration.vocabulary(clientId);
    problems.push(...checkAgainstConfiguration(input, vocabulary, this.rules, 'create'));
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    const forbidden = writeScopeViolations(body, scope, PROFILE_WIRE_FORMAT);
    if (forbidden.length) throw new PermissionDeniedError(forbidden.join('; '));

    const profileId = await this.profiles.claimNewProfileId(clientId);
    // A 409 here leaves an unused pending shell: it is never shown (no write names it).
    await this.alternateIds.claimAll(clientId, profileId, body.AlternateIds);
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'create',
      body,
      userId,
      scope,
      window,
    });
    return toSubmissionResult(profileId, body, write);
  }
}
