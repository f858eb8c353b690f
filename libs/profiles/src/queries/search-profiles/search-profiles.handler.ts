import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { InvalidInputError, PermissionDeniedError, textKey } from '@app/shared';
import type { ProfileDto } from '../../dto/profile.dto';
import { toProfileDto } from '../../mapping/profile.mapper';
import { type Candidate, SearchCandidates } from '../../search-index/search-candidates.service';
import { keyQueryOf } from '../../search-index/search-keys';
import {
  answeredData,
  candidateConditions,
  type MatchCriteria,
  profileMatches,
  type SearchCriteria,
} from './profile-search.criteria';
import { SearchProfilesQuery } from './search-profiles.query';

/** Spec "Limits": a search returns at most 50 profiles; more matches give 403. */
export const MAX_SEARCH_RESULTS = 50;

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
  ) {}

  async execute({ clientId, criteria: search, view }: SearchProfilesQuery): Promise<ProfileDto[]> {
    const criteria = await this.resolve(clientId, search);
    if (!criteria) return [];
    const conditions = candidateConditions(criteria);
    const keys = keyQueryOf(criteria);
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
        if (profile.data && profileMatches(profile.data, criteria, view)) matched.push(profile);
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
        answeredData(profile.data!, criteria, view),
        profile.pending,
        view,
      ),
    );
  }

  /**
   * Consent attributes belong to consent types (configuration, read from the cached
   * reader): they become the consent types carrying them all. None: nothing can match.
   */
  private async resolve(
    clientId: string,
    criteria: SearchCriteria,
  ): Promise<MatchCriteria | undefined> {
    if (criteria.kind !== 'consentAttributes') return criteria;
    const vocabulary = await this.configuration.vocabulary(clientId);
    const names = vocabulary.consentTypesWithAttributes(criteria.attributes);
    if (!names.length) return undefined;
    return { kind: 'consentTypes', consentTypeKeys: names.map((name) => textKey(name)) };
  }
}
