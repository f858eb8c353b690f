import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  Settings,
} from '@app/shared';
import { alternateIdKey } from '../../domain/element-rules';
import { checkAgainstConfiguration } from '../../domain/profile-configuration.rules';
import { ProfileRules } from '../../domain/profile-rules';
import { checkProfileInput } from '../../domain/profile-input.rules';
import { writeScopeViolations } from '../../domain/profile-scope.rules';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../dto/profile.dto';
import { ProfileRepository } from '../../repositories/profile.repository';
import {
  type AlternateIdPair,
  AlternateIdClaims,
} from '../../services/alternate-id-claims.service';
import { ProfileWriteIntake } from '../../services/profile-write-intake.service';
import { toSubmissionResult } from '../submission-result';
import { UpdateProfileCommand } from '../update-profile/update-profile.command';
import { WriteProfileByAlternateIdCommand } from './write-profile-by-alternate-id.command';
import { PROFILE_WIRE_FORMAT } from '../../mapping/profile-wire-format';

/** Upserts that lose a claim race this many times in a row give up (409). */
const MAX_ROUNDS = 5;

/**
 * Writes to the profile that holds an alternate id pair. For an upsert of a pair nobody
 * holds, the claim of the pair decides who creates: the new profile's id is taken, then
 * the pair is claimed for it (a unique `_id` insert) before its create is accepted. The
 * losers of a simultaneous upsert find the winner's claim, wait until its create is
 * accepted, and queue their body as a merge behind it: one profile, every body applied.
 */
@CommandHandler(WriteProfileByAlternateIdCommand)
export class WriteProfileByAlternateIdHandler implements ICommandHandler<WriteProfileByAlternateIdCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly profiles: ProfileRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
    private readonly configuration: ConfigurationReader,
    private readonly settings: Settings,
    private readonly rules: ProfileRules,
  ) {}

  async execute(command: WriteProfileByAlternateIdCommand): Promise<ProfileSubmissionResultDto> {
    const { clientId, pair, mode } = command;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const holder = await this.alternateIds.currentHolder(
        clientId,
        pair,
        this.settings.syncWriteTimeoutMs,
      );
      if (holder !== null) return this.update(command, holder);
      if (mode === 'overwrite') {
        throw new NotFoundError(
          `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
        );
      }
      const created = await this.create(command);
      if (created) return created;
      // Another upsert claimed the pair first: merge into its profile.
    }
    throw new ConflictError(
      `AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}" is being claimed by other writes; retry`,
    );
  }

  private async update(
    { clientId, userId, pair, body, mode, scope }: WriteProfileByAlternateIdCommand,
    profileId: number,
  ): Promise<ProfileSubmissionResultDto> {
    const result = await this.commands.execute(
      new UpdateProfileCommand(
        clientId,
        userId,
        profileId,
        body,
        mode === 'upsert' ? 'merge' : 'overwrite',
        scope,
      ),
    );
    return { ...result, AlternateId: pair.AlternateId, AlternateIdType: pair.AlternateIdType };
  }

  /** The create of an upsert; null when another writer holds the pair (lost the race). */
  private async create({
    clientId,
    userId,
    pair,
    body,
    scope,
  }: WriteProfileByAlternateIdCommand): Promise<ProfileSubmissionResultDto | null> {
    const input = withPair(body, pair);
    const problems = checkProfileInput(input as Record<string, unknown>, 'create');
    const vocabulary = await this.configuration.vocabulary(clientId);
    problems.push(
      ...checkAgainstConfiguration(
        input as Record<string, unknown>,
        vocabulary,
        this.rules,
        'create',
      ),
    );
    if (problems.length) throw new InvalidInputError(problems.join('; '));
    const forbidden = writeScopeViolations(input, scope, PROFILE_WIRE_FORMAT);
    if (forbidden.length) throw new PermissionDeniedError(forbidden.join('; '));

    const profileId = await this.profiles.claimNewProfileId(clientId);
    // The pair first: its claim is what makes this request the creator. A lost race
    // leaves an unused pending shell, never shown (no write names it).
    try {
      await this.alternateIds.claimAll(clientId, profileId, [pair]);
    } catch (error) {
      if (error instanceof ConflictError) return null;
      throw error;
    }
    try {
      await this.alternateIds.claimAll(clientId, profileId, input.AlternateIds);
    } catch (error) {
      await this.alternateIds.releasePairs(clientId, profileId, [pair]);
      throw error;
    }
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'create',
      body: input,
      userId,
      scope,
    });
    return toSubmissionResult(profileId, input, write, pair);
  }
}

/** The body of a create by alternate id: the pair is added to AlternateIds if absent. */
function withPair(body: ProfileDto, pair: AlternateIdPair): ProfileDto {
  const key = alternateIdKey(pair.AlternateIdType, pair.AlternateId);
  const alternateIds = body.AlternateIds ?? [];
  const present = alternateIds.find(
    (candidate) => alternateIdKey(candidate.AlternateIdType, candidate.AlternateId) === key,
  );
  if (present && present.IsActive !== false) return body;
  const others = alternateIds.filter((candidate) => candidate !== present);
  return {
    ...body,
    AlternateIds: [
      ...others,
      { AlternateIdType: pair.AlternateIdType, AlternateId: pair.AlternateId, IsActive: true },
    ],
  };
}
