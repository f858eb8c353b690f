import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, textKey } from '@app/shared';
import { compareHistoryEntries } from '../../domain/profile-history';
import { ProfileRules } from '../../domain/profile-rules';
import type { ProfileDto } from '../../dto/profile.dto';
import {
  canSeeHistoryEntry,
  ownHistoryPart,
  toHistoryEntryDto,
} from '../../mapping/profile-history.mapper';
import { toProfileDto } from '../../mapping/profile.mapper';
import { ProfileHistoryRepository } from '../../repositories/profile-history.repository';
import { ProfileRepository } from '../../repositories/profile.repository';
import { AlternateIdClaims } from '../../services/alternate-id-claims.service';
import { ExistingProfiles } from '../../services/existing-profiles.service';
import { GetProfileHistoryQuery, type HistoryTarget } from './get-profile-history.query';

/**
 * Reads the profile first (404 when unknown or deleted), then its history up to the
 * appliedSeq it read: so the answer never shows a write the profile does not hold yet,
 * and the current AlternateIds are those of the same read.
 */
@QueryHandler(GetProfileHistoryQuery)
export class GetProfileHistoryHandler implements IQueryHandler<GetProfileHistoryQuery> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly history: ProfileHistoryRepository,
    private readonly profiles: ProfileRepository,
    private readonly rules: ProfileRules,
  ) {}

  async execute({
    clientId,
    target,
    category,
    view,
    filterId,
  }: GetProfileHistoryQuery): Promise<ProfileDto[]> {
    const profileId = await this.profileIdOf(clientId, target);
    const profile = await this.existing.get(clientId, profileId);
    if (!profile.data) return []; // created but not applied yet: no history so far
    const filterKey = filterId?.trim() ? textKey(filterId) : undefined;
    // An entry stored before page counts were kept: the profile document has it.
    const pages =
      profile.historyPages ?? (await this.profiles.findOne(clientId, profileId))?.historyPages ?? 0;
    const entries = await this.history.list(
      clientId,
      profileId,
      pages,
      category,
      profile.appliedSeq,
      filterKey,
    );
    const alternateIds = toProfileDto(profileId, profile.data, false, view).AlternateIds ?? [];
    // A rule module's category (preferences, consents): the module judges, orders and
    // shows its entries.
    const rule = this.rules.history(category);
    return entries
      .filter((entry) => (rule ? rule.canSee(view, entry) : canSeeHistoryEntry(view, entry)))
      .sort(rule?.compare ?? compareHistoryEntries)
      .map((entry) =>
        toHistoryEntryDto(
          profileId,
          rule ? rule.toEntry(entry, view) : ownHistoryPart(entry),
          alternateIds,
        ),
      );
  }

  /** By alternate id: the holder of the pair's claim, as the profile retrieval finds it. */
  private async profileIdOf(clientId: string, target: HistoryTarget): Promise<number> {
    if ('profileId' in target) return target.profileId;
    const { pair } = target;
    const holder = await this.alternateIds.currentHolder(clientId, pair, 0).catch(() => null);
    if (holder === null) {
      throw new NotFoundError(
        `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
      );
    }
    return holder;
  }
}
