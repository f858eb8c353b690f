import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { ProfileUpdateListDto } from './profile-update.dto';
import { toProfileUpdateDto } from './profile-update.mapper';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileWriteRepository, statusOf } from '../../persistence/profile-write.repository';
import { GetProfileUpdatesQuery } from './get-profile-updates.query';
import { ProfileSettings } from '../../profile-settings';

/** Pending writes listed at most (each is one `_id` lookup). */
const PENDING_LISTED = 100;

/**
 * The accepted writes of a profile with their outcome, failures included, newest first:
 * the pending ones (after appliedSeq) and the kept records of applied ones
 * (WRITE_RECORDS_KEPT), each read by `_id`.
 */
@QueryHandler(GetProfileUpdatesQuery)
export class GetProfileUpdatesHandler implements IQueryHandler<GetProfileUpdatesQuery> {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly settings: ProfileSettings,
  ) {}

  async execute({ clientId, profileId }: GetProfileUpdatesQuery): Promise<ProfileUpdateListDto> {
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'deleted') {
      throw new NotFoundError(`Profile ${profileId} was not found`);
    }
    const { appliedSeq } = profile;
    const pending = await this.writes.pendingAfter(clientId, profileId, appliedSeq, PENDING_LISTED);
    const done = await this.writes.listDownFrom(
      clientId,
      profileId,
      appliedSeq,
      this.settings.writeRecordsKept,
    );
    // A refused create leaves a shell with a failed write: still shown, so the failure is
    // visible; a shell with no write at all is not a profile.
    if (!pending.length && !done.length && appliedSeq === 0) {
      throw new NotFoundError(`Profile ${profileId} was not found`);
    }
    return {
      Updates: [...pending.reverse(), ...done].map((write) =>
        toProfileUpdateDto(write, statusOf(write, appliedSeq)),
      ),
    };
  }
}
