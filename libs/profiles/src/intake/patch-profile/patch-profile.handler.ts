import { CommandHandler, ICommandHandler, QueryBus } from '@nestjs/cqrs';
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
  PermissionDeniedError,
  Settings,
} from '@app/shared';
import { FORBIDDEN_PATCH } from '../../domain/profile-transition';
import { writerView } from '../../domain/profile-view';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { GetProfileQuery } from '../../read/get-profile/get-profile.query';
import { AlternateIdClaims } from '../../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ProfileWriteIntake } from '../profile-write-intake.service';
import { toSubmissionResult } from '../submission-result';
import { PatchProfileCommand, PatchProfileOutcome } from './patch-profile.command';

/**
 * A PATCH is queued like every other write (so it applies to the profile as the writes
 * accepted before it leave it) and the request waits for it up to SYNC_WRITE_TIMEOUT_MS:
 * applied → the profile; refused by the worker → 400 with its reason; still queued → 202.
 */
@CommandHandler(PatchProfileCommand)
export class PatchProfileHandler implements ICommandHandler<PatchProfileCommand> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly intake: ProfileWriteIntake,
    private readonly writes: ProfileWriteRepository,
    private readonly queries: QueryBus,
    private readonly settings: Settings,
  ) {}

  async execute({
    clientId,
    userId,
    target,
    operations,
    scope,
    window,
  }: PatchProfileCommand): Promise<PatchProfileOutcome> {
    const pair = 'pair' in target ? target.pair : undefined;
    const profileId = pair
      ? await this.alternateIds.currentHolder(clientId, pair, this.settings.syncWriteTimeoutMs)
      : (target as { profileId: number }).profileId;
    const known = profileId === null ? null : await this.existing.find(clientId, profileId);
    if (profileId === null || !known) {
      throw new NotFoundError(
        pair
          ? `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`
          : `Profile ${profileId} was not found`,
      );
    }
    const write = await this.intake.accept({
      clientId,
      profileId,
      kind: 'patch',
      body: { Operations: operations },
      userId,
      scope,
      known,
      window,
    });
    const status = await this.intake.waitFor(write, this.settings.syncWriteTimeoutMs);
    if (status === 'applied') {
      return {
        status: 'applied',
        profile: await this.queries.execute(
          new GetProfileQuery(clientId, profileId, { ...writerView(scope), implied: false }),
        ),
      };
    }
    if (status === 'failed') {
      const reason = (await this.writes.findById(clientId, write._id))?.failureReason;
      if (reason === 'The profile was deleted' || reason === 'No such profile')
        throw new NotFoundError(`Profile ${profileId} was not found`);
      // A pair the patch adds that another profile holds: the same 409 as a merge's.
      if (reason?.includes('belongs to another profile')) throw new ConflictError(reason);
      // The patched profile names data outside the writer's user-group scope.
      if (reason?.startsWith(FORBIDDEN_PATCH)) throw new PermissionDeniedError(reason);
      throw new InvalidInputError(`The PATCH was refused: ${reason ?? 'unknown reason'}`);
    }
    return { status: 'pending', result: toSubmissionResult(profileId, {}, write, pair) };
  }
}
