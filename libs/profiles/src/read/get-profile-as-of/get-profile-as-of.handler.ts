import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { NotFoundError } from '@app/shared';
import { profileDataAsOf } from '../../domain/profile-as-of';
import type { ProfileDto } from '../../wire/profile.dto';
import { toProfileDto } from '../../wire/profile.mapper';
import type { ProfileSnapshot } from '../profile-read-model.service';
import { ProfileHistoryRepository } from '../../persistence/profile-history.repository';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { GetProfileAsOfQuery } from './get-profile-as-of.query';

/**
 * GET profile with `asOf`: the profile as GET finds it (404 when unknown, deleted or of
 * another client), then its history pages by `_id` up to the appliedSeq it read (cost:
 * this profile's own pages, never a scan), replayed up to the instant and rendered by
 * GET's mapper through the caller's view. Groups and ProfileTags are not in history and
 * left out; AlternateIds are the current ones (as the History routes show them).
 * UpdateStatus: "Pending Update" when the first write not applied yet was accepted at or
 * before the instant (one `_id` read of that write, only when one is pending).
 */
@QueryHandler(GetProfileAsOfQuery)
export class GetProfileAsOfHandler implements IQueryHandler<GetProfileAsOfQuery> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly history: ProfileHistoryRepository,
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly configuration: ConfigurationReader,
  ) {}

  async execute({ clientId, profileId, asOf, view }: GetProfileAsOfQuery): Promise<ProfileDto> {
    const profile = await this.existing.get(clientId, profileId);
    const instant = asOf.toISOString();
    // An entry stored before page counts were kept: the profile document has it.
    const pages =
      profile.historyPages ?? (await this.profiles.findOne(clientId, profileId))?.historyPages ?? 0;
    const [entries, names] = await Promise.all([
      profile.data
        ? this.history.allEntries(clientId, profileId, pages, profile.appliedSeq)
        : Promise.resolve([]),
      this.configuration.vocabulary(clientId),
    ]);
    const rebuilt = profileDataAsOf(entries, asOf, names);
    switch (rebuilt.status) {
      case 'empty':
        throw new NotFoundError(
          `Profile ${profileId} has no history yet (its create is not applied): nothing to show as of ${instant}`,
        );
      case 'before':
        throw new NotFoundError(
          `Profile ${profileId} did not exist as of ${instant}: the earliest instant available is ${rebuilt.earliest} (its creation)`,
        );
      case 'incomplete':
        throw new NotFoundError(
          `Profile ${profileId} cannot be rebuilt as of ${instant}: its history begins at ${rebuilt.earliest} without its creation`,
        );
    }
    const pending = await this.pendingAt(profile, asOf);
    const {
      Groups: _groups,
      ProfileTags: _tags,
      ...answer
    } = toProfileDto(profileId, rebuilt.data, pending, view);
    const current = profile.data ? toProfileDto(profileId, profile.data, false, view) : undefined;
    return { ...answer, AlternateIds: current?.AlternateIds ?? [] };
  }

  /** Whether a write accepted at or before `asOf` is not applied yet. */
  private async pendingAt(profile: ProfileSnapshot, asOf: Date): Promise<boolean> {
    if (profile.acceptedSeq <= profile.appliedSeq) return false;
    const next = await this.writes.findSeq(
      profile.clientId,
      profile.profileId,
      profile.appliedSeq + 1,
    );
    return next !== null && new Date(next.acceptedAt).getTime() <= asOf.getTime();
  }
}
