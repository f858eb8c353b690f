import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError, PermissionDeniedError, textKey } from '@app/shared';
import { groupKey } from '../../../domain/element-rules';
import {
  isActiveMember,
  isActiveMembership,
  membershipKey,
} from '../../../domain/group-membership';
import type { ProfileData } from '../../../domain/profile-data.schema';
import type { ProfileDto } from '../../../wire/profile.dto';
import { toProfileDto } from '../../../wire/profile.mapper';
import type { ProfileView } from '../../../domain/profile-view';
import { type Candidate, SearchCandidates } from '../search-candidates.service';
import { keyQueryOf } from '../search-keys';
import { AlternateIdClaims } from '../../../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../../../persistence/existing-profiles.service';
import { candidateConditions, profileMatches } from '../search-profiles/profile-search.criteria';
import { MAX_SEARCH_RESULTS } from '../search-profiles/search-profiles.handler';
import {
  type GroupProfilesCriteria,
  type PrimaryProfile,
  SearchGroupProfilesQuery,
} from './search-group-profiles.query';

const PAGE = MAX_SEARCH_RESULTS + 1;

/**
 * The members of a group, or of the groups a primary profile heads. Members are read in
 * pages of 51 by group key (the search key index), each checked in code (an active profile
 * with an active membership: the engine refuses `$elemMatch`); a further page is read only
 * when a page held documents that did not count, and reading stops at 51 members (403).
 */
@QueryHandler(SearchGroupProfilesQuery)
export class SearchGroupProfilesHandler implements IQueryHandler<SearchGroupProfilesQuery> {
  constructor(
    private readonly candidates: SearchCandidates,
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
  ) {}

  async execute({ clientId, criteria, view }: SearchGroupProfilesQuery): Promise<ProfileDto[]> {
    const keys = await this.groupKeys(clientId, criteria, view);
    const members = keys.size ? await this.members(clientId, keys) : [];
    return members.map((profile) =>
      toProfileDto(profile.profileId, profile.data!, profile.pending, view),
    );
  }

  private async groupKeys(
    clientId: string,
    criteria: GroupProfilesCriteria,
    view: ProfileView,
  ): Promise<Set<string>> {
    if (criteria.by === 'group') return new Set([groupKey(criteria.groupType, criteria.groupName)]);
    const keys = new Set<string>();
    for (const data of await this.primaries(clientId, criteria.primary, view)) {
      for (const group of data.Groups ?? []) {
        if (
          isActiveMembership(group) &&
          group.IsPrimary === true &&
          textKey(group.GroupType) === textKey(criteria.groupType) &&
          (criteria.groupName === undefined ||
            textKey(group.GroupName) === textKey(criteria.groupName))
        ) {
          keys.add(membershipKey(group));
        }
      }
    }
    return keys;
  }

  /**
   * The primary profile's data: by id or alternate id it must exist (404; a profile whose
   * create is not applied yet has no groups); by phone or email every active profile with
   * that active phone or email is a primary candidate (none: no groups).
   */
  private async primaries(
    clientId: string,
    primary: PrimaryProfile,
    view: ProfileView,
  ): Promise<ProfileData[]> {
    if ('contact' in primary) {
      const found: ProfileData[] = [];
      const conditions = candidateConditions(primary.contact);
      const query = keyQueryOf(primary.contact);
      for (let after = 0; ;) {
        const page = await this.candidates.page(clientId, query, conditions, after, PAGE);
        for (const profile of page) {
          if (profile.data && profileMatches(profile.data, primary.contact, view))
            found.push(profile.data);
        }
        if (page.length < PAGE) return found;
        after = page[page.length - 1].profileId;
      }
    }
    let profileId: number | null;
    if ('pair' in primary) {
      const { pair } = primary;
      profileId = await this.alternateIds.currentHolder(clientId, pair, 0).catch(() => null);
      if (profileId === null) {
        throw new NotFoundError(
          `No profile has AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}"`,
        );
      }
    } else {
      profileId = primary.profileId;
    }
    const profile = await this.existing.get(clientId, profileId);
    return profile.data ? [profile.data] : [];
  }

  /** Active profiles with an active membership of one of the groups, in profile id order. */
  private async members(clientId: string, keys: Set<string>): Promise<Candidate[]> {
    const conditions = [
      { 'data.Groups.Key': { $in: [...keys] } },
      { 'data.IsActive': { $ne: false } },
    ];
    const query = [[...keys].map((key) => `group:${key}`)];
    const matched: Candidate[] = [];
    for (let after = 0; ;) {
      const page = await this.candidates.page(clientId, query, conditions, after, PAGE);
      for (const profile of page) {
        if ([...keys].some((key) => isActiveMember(profile.data, key))) matched.push(profile);
      }
      if (matched.length > MAX_SEARCH_RESULTS) {
        throw new PermissionDeniedError(
          `More than ${MAX_SEARCH_RESULTS} profiles are members of the group(s); at most ${MAX_SEARCH_RESULTS} are returned, narrow the search`,
        );
      }
      if (page.length < PAGE) return matched;
      after = page[page.length - 1].profileId;
    }
  }
}
