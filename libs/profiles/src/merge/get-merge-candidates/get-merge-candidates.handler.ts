import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PermissionDeniedError } from '@app/shared';
import type { MergeCandidateDto, MergeCandidatesDto, SharedKeyDto } from '../merge-candidates.dto';
import { SearchCandidates } from '../../read/search/search-candidates.service';
import { keyQueryOf } from '../../read/search/search-keys';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { candidateConditions } from '../../read/search/search-profiles/profile-search.criteria';
import { GetMergeCandidatesQuery } from './get-merge-candidates.query';
import { type IdentityKey, identityKeysOf, sharedIdentityKeys } from './merge-candidate-keys';

/** At most this many candidates are answered (as a search answers at most 50 profiles). */
export const MAX_MERGE_CANDIDATES = 50;
const PAGE = 200;

/**
 * The profiles of the client that may be the same person as the given one: for each of
 * its identity keys, the holders from the search key index (SearchCandidates: Redis sets,
 * read-model reads, no scan), each checked exactly against the key (a stale index member
 * is dropped), the profile itself left out.
 */
@QueryHandler(GetMergeCandidatesQuery)
export class GetMergeCandidatesHandler implements IQueryHandler<GetMergeCandidatesQuery> {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly candidates: SearchCandidates,
  ) {}

  async execute({ clientId, profileId }: GetMergeCandidatesQuery): Promise<MergeCandidatesDto> {
    const subject = await this.existing.get(clientId, profileId);
    const keys = identityKeysOf(subject.data);
    const shared = new Map<number, IdentityKey[]>();
    const skipped: IdentityKey[] = [];
    for (const key of keys) {
      try {
        await this.holders(clientId, key, profileId, shared);
      } catch (error) {
        if (!(error instanceof PermissionDeniedError)) throw error;
        skipped.push(key);
      }
    }
    const ids = [...shared.keys()].sort((a, b) => a - b);
    const candidates: MergeCandidateDto[] = ids.slice(0, MAX_MERGE_CANDIDATES).map((id) => ({
      ProfileId: id,
      SharedKeys: shared.get(id)!.map(wire),
    }));
    return {
      ProfileId: profileId,
      Candidates: candidates,
      Truncated: ids.length > MAX_MERGE_CANDIDATES,
      SkippedKeys: skipped.map(wire),
    };
  }

  /** Adds the holders of `key` (checked exactly) to `shared`; too broad: PermissionDenied. */
  private async holders(
    clientId: string,
    key: IdentityKey,
    profileId: number,
    shared: Map<number, IdentityKey[]>,
  ): Promise<void> {
    const query = keyQueryOf(key.criteria);
    const conditions = candidateConditions(key.criteria);
    for (let after = 0; ;) {
      const page = await this.candidates.page(clientId, query, conditions, after, PAGE);
      for (const candidate of page) {
        if (candidate.profileId === profileId) continue;
        if (!sharedIdentityKeys([key], candidate.data).length) continue;
        const list = shared.get(candidate.profileId) ?? [];
        list.push(key);
        shared.set(candidate.profileId, list);
      }
      if (page.length < PAGE) return;
      after = page[page.length - 1].profileId;
    }
  }
}

function wire(key: IdentityKey): SharedKeyDto {
  return { Kind: key.kind, Value: key.value };
}
