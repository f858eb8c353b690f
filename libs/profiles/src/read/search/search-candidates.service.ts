import type { SearchCondition } from '../../domain/profile-rules.port';
import { Injectable } from '@nestjs/common';
import { PermissionDeniedError } from '@app/shared';
import type { Profile } from '../../domain/profile.schema';
import { ProfileRepository } from '../../persistence/profile.repository';
import { ProfileWriteRepository } from '../../persistence/profile-write.repository';
import { ExistingProfiles } from '../../persistence/existing-profiles.service';
import { ProfileKeyIndex } from './profile-key-index.service';
import type { KeyQuery } from './search-keys';
import { profileKey } from '../../keys';
import { ProfileSettings } from '../../profile-settings';

const WALK_PAGE = 200;

/** An active profile a search looks at, with its UpdateStatus. */
export type Candidate = Profile & { pending: boolean };

/**
 * The candidates of a search, a page at a time in profile id order: from the key index
 * (each profile then read from the read model, so no database command when warm), or,
 * while the index is being built, from the database's candidate query (a scan on the
 * embedded engine). A user's search reads at most SEARCH_CANDIDATE_LIMIT (5,000)
 * candidates from the key index: a search broader than that (a city with nothing else, a
 * two-letter partial name) answers 403 like one matching more than 50 profiles, instead of
 * reading thousands of profiles. Walks of the system (jobs, tag deletion, group rename)
 * must reach every holder and are not capped.
 */
@Injectable()
export class SearchCandidates {
  constructor(
    private readonly index: ProfileKeyIndex,
    private readonly existing: ExistingProfiles,
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
    private readonly settings: ProfileSettings,
  ) {}

  /**
   * Up to `limit` active profiles after `afterProfileId` holding the query's keys (the
   * database fallback: meeting `conditions`); fewer than `limit` means there are no more.
   * `capped: false` for walks that must see every holder.
   */
  async page(
    clientId: string,
    query: KeyQuery,
    conditions: SearchCondition[],
    afterProfileId: number,
    limit: number,
    options: { capped: boolean } = { capped: true },
  ): Promise<Candidate[]> {
    const ids = await this.index.candidates(clientId, query);
    if (ids === null) return this.fromDatabase(clientId, conditions, afterProfileId, limit);
    const cap = this.settings.searchCandidateLimit;
    if (options.capped && ids.length > cap) {
      throw new PermissionDeniedError(
        `The search is too broad (more than ${cap} candidate profiles); narrow it`,
      );
    }
    const found: Candidate[] = [];
    const rest = ids.filter((id) => id > afterProfileId);
    for (let at = 0; at < rest.length && found.length < limit; at += limit) {
      const batch = rest.slice(at, at + limit);
      const snapshots = await Promise.all(batch.map((id) => this.existing.find(clientId, id)));
      for (const snapshot of snapshots) {
        if (found.length >= limit) break;
        if (snapshot?.state !== 'active' || !snapshot.data) continue;
        found.push({
          _id: profileKey(clientId, snapshot.profileId),
          clientId,
          profileId: snapshot.profileId,
          state: snapshot.state,
          appliedSeq: snapshot.appliedSeq,
          data: snapshot.data,
          pending: snapshot.acceptedSeq > snapshot.appliedSeq,
        });
      }
    }
    return found;
  }

  /** Every candidate, page by page (a walk: not capped). */
  async all(
    clientId: string,
    query: KeyQuery,
    conditions: SearchCondition[],
  ): Promise<Candidate[]> {
    const found: Candidate[] = [];
    for (let after = 0; ;) {
      const page = await this.page(clientId, query, conditions, after, WALK_PAGE, {
        capped: false,
      });
      found.push(...page);
      if (page.length < WALK_PAGE) return found;
      after = page[page.length - 1].profileId;
    }
  }

  private async fromDatabase(
    clientId: string,
    conditions: SearchCondition[],
    afterProfileId: number,
    limit: number,
  ): Promise<Candidate[]> {
    const page = await this.profiles.findSearchCandidates(
      clientId,
      conditions,
      afterProfileId,
      limit,
    );
    const pending = await this.writes.pendingAmong(page);
    return page.map((profile) => ({ ...profile, pending: pending.has(profile.profileId) }));
  }
}
