import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { InvalidInputError, PermissionDeniedError } from '@app/shared';
import { ProfileRules } from '../../../domain/profile-rules';
import type { ProfileSearchRule, SearchCriteriaOf } from '../../../domain/profile-rules.port';
import type { ProfileDto } from '../../../wire/profile.dto';
import { toProfileDto } from '../../../wire/profile.mapper';
import { type Candidate, SearchCandidates } from '../search-candidates.service';
import { keyQueryOf } from '../search-keys';
import {
  candidateConditions,
  PROFILE_SEARCH_KINDS,
  profileMatches,
  type SearchCriteria,
} from './profile-search.criteria';
import { SearchProfilesQuery } from './search-profiles.query';

/** Spec "Limits": a search returns at most 50 profiles; more matches give 403. */
export const MAX_SEARCH_RESULTS = 50;

/** The profile's own searches, run as a rule module's are. */
const PROFILE_SEARCH: Omit<ProfileSearchRule<SearchCriteria>, 'kind'> = {
  keyQuery: keyQueryOf,
  candidateConditions,
  matches: profileMatches,
};

/**
 * Reads candidates from the search key index (SearchCandidates; the database while the
 * index is being built) in pages of 51 (profile id order) and checks each in code;
 * a further page is read only when the previous one held candidates that did not match
 * (a value on an inactive element, or conditions met by different elements). It stops
 * as soon as 51 profiles match.
 */
@QueryHandler(SearchProfilesQuery)
export class SearchProfilesHandler implements IQueryHandler<SearchProfilesQuery> {
  constructor(
    private readonly candidates: SearchCandidates,
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
  ) {}

  async execute({ clientId, criteria: search, view }: SearchProfilesQuery): Promise<ProfileDto[]> {
    const rule = this.ruleOf(search);
    const criteria = rule.resolve
      ? // A read path: the configuration stamp read within READ_STAMP_REUSE_MS may serve.
        rule.resolve(search, await this.configuration.vocabulary(clientId, { reuseStamp: true }))
      : search;
    if (!criteria) return [];
    const conditions = rule.candidateConditions(criteria);
    const keys = rule.keyQuery(criteria);
    if (!keys.length) {
      throw new InvalidInputError(
        'A partial name search needs a name part of at least 2 characters (firstName, middleName or lastName)',
      );
    }
    const pageSize = MAX_SEARCH_RESULTS + 1;
    const matched: Candidate[] = [];
    let after = 0;
    for (;;) {
      const page = await this.candidates.page(clientId, keys, conditions, after, pageSize);
      for (const profile of page) {
        if (profile.data && rule.matches(profile.data, criteria, view)) matched.push(profile);
      }
      if (matched.length > MAX_SEARCH_RESULTS) {
        throw new PermissionDeniedError(
          `More than ${MAX_SEARCH_RESULTS} profiles match the search; at most ${MAX_SEARCH_RESULTS} are returned, narrow the search`,
        );
      }
      if (page.length < pageSize) break;
      after = page[page.length - 1].profileId;
    }
    return matched.map((profile) =>
      toProfileDto(
        profile.profileId,
        rule.answer ? rule.answer(profile.data!, criteria, view) : profile.data!,
        profile.pending,
        view,
      ),
    );
  }

  private ruleOf(criteria: SearchCriteria | SearchCriteriaOf): Omit<ProfileSearchRule, 'kind'> {
    if (PROFILE_SEARCH_KINDS.has(criteria.kind))
      return PROFILE_SEARCH as Omit<ProfileSearchRule, 'kind'>;
    const rule = this.rules.search(criteria.kind);
    // A route dispatching a kind no module registered is a wiring mistake, not bad input.
    if (!rule) throw new Error(`No profile search of kind "${criteria.kind}" is registered`);
    return rule;
  }
}
