import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, textKey } from '@app/shared';
import { compareHistoryEntries } from '../../../domain/profile-history';
import { ProfileRules } from '../../../domain/profile-rules';
import {
  isMergeEntry,
  type MergeSnapshot,
  type ProfileHistory,
} from '../../../domain/profile-history.schema';
import { MERGE_HISTORY_CATEGORY } from '../../../domain/profile-merge-history';
import type { HistoryEntryDto, HistoryMergeDto } from '../history-entry.dto';
import { canSeeHistoryEntry, ownHistoryPart, toHistoryEntryDto } from '../profile-history.mapper';
import { toProfileDto } from '../../../wire/profile.mapper';
import { ProfileHistoryRepository } from '../../../persistence/profile-history.repository';
import { ProfileRepository } from '../../../persistence/profile.repository';
import { AlternateIdClaims } from '../../../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../../../persistence/existing-profiles.service';
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
  }: GetProfileHistoryQuery): Promise<HistoryEntryDto[]> {
    const profileId = await this.profileIdOf(clientId, target);
    const profile = await this.existing.get(clientId, profileId);
    if (!profile.data) return []; // created but not applied yet: no history so far
    const filterKey = filterId?.trim() ? textKey(filterId) : undefined;
    // An entry stored before page counts were kept: the profile document has it.
    const pages =
      profile.historyPages ?? (await this.profiles.findOne(clientId, profileId))?.historyPages ?? 0;
    const alternateIds = toProfileDto(profileId, profile.data, false, view).AlternateIds ?? [];
    const own = await this.history.allEntries(clientId, profileId, pages, profile.appliedSeq);
    const answer = this.render(own, category, view, filterKey).map(
      (entry) => toHistoryEntryDto(profileId, entry, alternateIds) as HistoryEntryDto,
    );
    // A survivor's history goes on with the entries of the profiles it absorbed, each
    // marked with its origin (their pages stay where they are: docs/profile-merge.md).
    for (const absorbedId of profile.absorbed ?? []) {
      const absorbed = await this.profiles.findOne(clientId, absorbedId);
      if (absorbed?.state !== 'merged') continue;
      const entries = await this.history.allEntries(
        clientId,
        absorbedId,
        absorbed.historyPages ?? 0,
        absorbed.appliedSeq,
      );
      for (const part of this.render(entries, category, view, filterKey)) {
        answer.push({
          ...(toHistoryEntryDto(profileId, part, alternateIds) as HistoryEntryDto),
          Origin: { ProfileId: absorbedId },
        });
      }
    }
    return answer;
  }

  /**
   * One profile's entries of the category the caller may see, in the category's order, as
   * answer parts; standard-fields history lists the merges too (MERGE_HISTORY_CATEGORY).
   */
  private render(
    all: ProfileHistory[],
    category: string,
    view: GetProfileHistoryQuery['view'],
    filterKey: string | undefined,
  ): HistoryEntryDto[] {
    const merges = category === 'standard';
    const entries = all.filter(
      (entry) =>
        (entry.category === category || (merges && entry.category === MERGE_HISTORY_CATEGORY)) &&
        (filterKey === undefined || entry.filterKey === filterKey),
    );
    // A rule module's category (preferences, consents): the module judges, orders and
    // shows its entries.
    const rule = this.rules.history(category);
    return entries
      .filter((entry) => (rule ? rule.canSee(view, entry) : canSeeHistoryEntry(view, entry)))
      .sort(rule?.compare ?? compareHistoryEntries)
      .map((entry) =>
        isMergeEntry(entry)
          ? { Merge: mergeOf(entry.snapshot) }
          : rule
            ? rule.toEntry(entry, view)
            : ownHistoryPart(entry),
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

/** What a merge entry shows (its chain fields and the absorbed head stay internal). */
function mergeOf(snapshot: MergeSnapshot): HistoryMergeDto {
  return {
    AbsorbedProfileId: Number(snapshot.AbsorbedProfileId),
    ReasonCode: String(snapshot.ReasonCode),
    MergedBy: String(snapshot.MergedBy),
    MergedAt: String(snapshot.MergedAt),
  };
}
