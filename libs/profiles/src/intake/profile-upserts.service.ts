import { Injectable } from '@nestjs/common';
import { ConfigurationReader } from '@app/config';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  type RequestWindow,
  Settings,
} from '@app/shared';
import { alternateIdKey } from '../domain/element-rules';
import type { ImportRecordRef } from '../domain/import-marks';
import { checkAgainstConfiguration } from '../domain/profile-configuration.rules';
import { checkProfileInput } from '../domain/profile-input.rules';
import type { WriteMode } from '../domain/apply-profile-write';
import { ProfileRules } from '../domain/profile-rules';
import { writeScopeViolations } from '../domain/profile-scope.rules';
import type { CallerScope } from '../domain/profile-view';
import type { ImportFlags, ProfileWrite } from '../domain/profile-write.schema';
import type { ProfileDto, ProfileSubmissionResultDto } from '../wire/profile.dto';
import { PROFILE_WIRE_FORMAT } from '../wire/profile-wire-format';
import { toSubmissionResult } from './submission-result';
import { ProfileRepository } from '../persistence/profile.repository';
import {
  type AlternateIdPair,
  AlternateIdClaims,
} from '../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../persistence/existing-profiles.service';
import { ProfileWriteIntake } from './profile-write-intake.service';
import { profileBodyOf } from '../wire/profile-body.mapper';

/** Upserts that lose a claim race this many times in a row give up (409). */
const MAX_ROUNDS = 5;

/** Who writes, and what. */
export interface ProfileWriteInput {
  clientId: string;
  userId: string;
  body: ProfileDto;
  /** The writer's user-group scope (undefined: unrestricted); see profile-scope.rules. */
  scope?: CallerScope;
  /**
   * The request's commit window (`@WriteWindow()`): a write answered 503 never commits;
   * null for a bulk import's records (no request).
   */
  window: RequestWindow | null;
}

/** What a bulk import adds to its records' writes (the Data API's writes set none). */
export interface ImportWriteOptions {
  importRecord?: ImportRecordRef;
  /** Collections the merge replaces whole (Refresh*). */
  replace?: string[];
  /** The import's flags, checked against the stored profile (ProfileRules.importProblems). */
  flags?: ImportFlags;
  /** Applied in the bulk lane. */
  background?: boolean;
}

/** What a bulk import's batch knows of a record (the Data API's writes set none). */
export interface ImportCreateOptions {
  /**
   * The caller found the pair unheld an instant before: the first round skips that
   * lookup (a writer that claimed it since is still caught by the pair's insert).
   */
  knownUnheld?: boolean;
}

/**
 * The acceptance of creates, merges and overwrites of whole profile bodies: the checks
 * (input, configuration, the writer's scope, alternate id claims), then the intake. The
 * Data API's handlers (UpdateProfile, WriteProfileByAlternateId) and the bulk import's
 * records (ProfileImportWrites) accept through it, so a record is accepted exactly as a
 * request would be.
 */
@Injectable()
export class ProfileUpserts {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly profiles: ProfileRepository,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
    private readonly settings: Settings,
  ) {}

  /** A merge (POST by id) or overwrite (PUT by id) of an existing profile. */
  async update(
    { clientId, userId, body, scope, window }: ProfileWriteInput,
    profileId: number,
    mode: WriteMode,
    options: ImportWriteOptions = {},
  ): Promise<ProfileSubmissionResultDto> {
    const input = profileBodyOf(body);
    const problems = checkProfileInput(input, mode);
    if (problems.length) throw new InvalidInputError(problems.join('; '));

    // The profile and the configuration stamp are read together (one Redis round trip for
    // both); the profile's 404 still comes first.
    const reading = this.configuration.vocabulary(clientId);
    reading.catch(() => undefined); // its error is raised below, after the profile's
    const profile = await this.existing.get(clientId, profileId);
    // Checked here against the stored values for a quick 400; the worker checks again
    // against the values stored when it applies the write (update rules are decided then).
    const vocabulary = await reading;
    const refused = checkAgainstConfiguration(input, vocabulary, this.rules, mode, profile.data);
    if (refused.length) throw new InvalidInputError(refused.join('; '));
    const forbidden = writeScopeViolations(body, scope, PROFILE_WIRE_FORMAT, profile);
    if (forbidden.length) throw new PermissionDeniedError(forbidden.join('; '));
    const { flags, ...intakeOptions } = options;
    const unwanted = flags ? this.rules.importProblems(input, profile.data, flags) : [];
    if (unwanted.length) throw new InvalidInputError(unwanted.join('; '));
    await this.alternateIds.claimAll(clientId, profileId, body.AlternateIds);
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: mode,
      body,
      userId,
      scope,
      known: profile,
      ...intakeOptions,
      importFlags: flags,
      window,
    });
    return toSubmissionResult(profileId, body, write);
  }

  /**
   * Writes to the profile that holds an alternate id pair. For an upsert of a pair nobody
   * holds, the claim of the pair decides who creates: the new profile's id is taken, then
   * the pair is claimed for it (a unique `_id` insert) before its create is accepted. The
   * losers of a simultaneous upsert find the winner's claim, wait until its create is
   * accepted, and queue their body as a merge behind it: one profile, every body applied.
   */
  async byAlternateId(
    input: ProfileWriteInput,
    pair: AlternateIdPair,
    mode: 'upsert' | 'overwrite',
    options: ImportWriteOptions = {},
    creates: ImportCreateOptions = {},
  ): Promise<ProfileSubmissionResultDto & { created: boolean }> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const holder =
        round === 0 && creates.knownUnheld
          ? null
          : await this.alternateIds.currentHolder(
              input.clientId,
              pair,
              this.settings.syncWriteTimeoutMs,
            );
      if (holder !== null) {
        const result = await this.update(
          input,
          holder,
          mode === 'upsert' ? 'merge' : 'overwrite',
          options,
        );
        return {
          ...result,
          AlternateId: pair.AlternateId,
          AlternateIdType: pair.AlternateIdType,
          created: false,
        };
      }
      if (mode === 'overwrite') throw notHeld(pair);
      const created = await this.create(input, pair, options);
      if (created) return { ...created, created: true };
      // Another upsert claimed the pair first: merge into its profile.
    }
    throw new ConflictError(
      `AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}" is being claimed by other writes; retry`,
    );
  }

  /**
   * Queues the delete of the profile holding the pair, without waiting for it (a bulk
   * import's Delete record; DELETE by id waits in DeleteProfileHandler).
   */
  async deleteByAlternateId(
    { clientId, userId, window }: Omit<ProfileWriteInput, 'body'>,
    pair: AlternateIdPair,
    options: ImportWriteOptions = {},
  ): Promise<{ profileId: number; write: ProfileWrite }> {
    const holder = await this.alternateIds.currentHolder(
      clientId,
      pair,
      this.settings.syncWriteTimeoutMs,
    );
    if (holder === null) throw notHeld(pair);
    const known = await this.existing.get(clientId, holder);
    const write = await this.intake.accept({
      clientId,
      profileId: holder,
      kind: 'delete',
      userId,
      known,
      ...options,
      window,
    });
    return { profileId: holder, write };
  }

  /** The create of an upsert; null when another writer holds the pair (lost the race). */
  private async create(
    { clientId, userId, body, scope, window }: ProfileWriteInput,
    pair: AlternateIdPair,
    options: ImportWriteOptions,
  ): Promise<ProfileSubmissionResultDto | null> {
    const input = withPair(body, pair);
    const problems = checkProfileInput(profileBodyOf(input), 'create');
    const vocabulary = await this.configuration.vocabulary(clientId);
    problems.push(
      ...checkAgainstConfiguration(profileBodyOf(input), vocabulary, this.rules, 'create'),
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
      // The pair is held already: claiming it again would cost a failed insert and a read.
      const others = input.AlternateIds?.filter((other) => !samePair(other, pair));
      await this.alternateIds.claimAll(clientId, profileId, others);
    } catch (error) {
      await this.alternateIds.releasePairs(clientId, profileId, [pair]);
      throw error;
    }
    // A create replaces nothing: Refresh* only concerns merges into stored profiles.
    // Nor do the import's flags: a new profile has nothing stored to compare with.
    const { replace: _replace, flags: _flags, ...createOptions } = options;
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'create',
      body: input,
      userId,
      scope,
      ...createOptions,
      window,
    });
    return toSubmissionResult(profileId, input, write, pair);
  }
}

function notHeld(pair: AlternateIdPair): NotFoundError {
  return new NotFoundError(
    `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
  );
}

function samePair(a: AlternateIdPair, b: AlternateIdPair): boolean {
  return (
    alternateIdKey(a.AlternateIdType, a.AlternateId) ===
    alternateIdKey(b.AlternateIdType, b.AlternateId)
  );
}

/** The body of a create by alternate id: the pair is added to AlternateIds if absent. */
export function withPair(body: ProfileDto, pair: AlternateIdPair): ProfileDto {
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
