import { Injectable } from '@nestjs/common';
import type { Caller } from '@app/auth';
import { ProfileRules } from '../domain/profile-rules';
import { isMergeEntry, type ProfileHistory } from '../domain/profile-history.schema';
import { viewOf } from '../domain/profile-view';
import { ProfileHistoryRepository } from '../persistence/profile-history.repository';
import { ProfileRepository } from '../persistence/profile.repository';

/** One entry of a profile's hash chain, and whether the caller's user group may see it. */
export interface ChainedHistoryEntry {
  entry: ProfileHistory;
  visible: boolean;
}

/** A profile's chained history as stored (domain/history-chain.ts). */
export interface ChainedProfileHistory {
  clientId: string;
  profileId: number;
  appliedSeq: number;
  /** The head the profile saved (its last chained entry's hash); null when none. */
  head: string | null;
  /** The chained history categories (consent, preference). */
  categories: string[];
  /** The entries of those categories written up to appliedSeq, in (seq, n) order. */
  entries: ChainedHistoryEntry[];
}

/** A profile a survivor absorbed, as its chain's merge entry names it (docs/profile-merge.md). */
export interface AbsorbedChainLink {
  profileId: number;
  /** The absorbed profile's chain head when it was absorbed, hashed into the merge entry. */
  head: string | null;
}

/** The profiles a chain's merge entries name, in merge order. */
export function absorbedLinks(history: ChainedProfileHistory): AbsorbedChainLink[] {
  return history.entries
    .map(({ entry }) => entry)
    .filter(isMergeEntry)
    .map(({ snapshot }) => ({
      profileId: snapshot.AbsorbedProfileId,
      head: snapshot.AbsorbedHead,
    }));
}

/**
 * The port Consents' receipts read a profile's hash chain through: the profile by `_id`
 * (its appliedSeq, page count and saved head), then its counted history pages by `_id`.
 * Not a hot path; its cost follows that profile's own history.
 */
@Injectable()
export class ProfileHistoryChain {
  constructor(
    private readonly profiles: ProfileRepository,
    private readonly history: ProfileHistoryRepository,
    private readonly rules: ProfileRules,
  ) {}

  /** Null when the caller's client has no such profile, or it was deleted (a 404). */
  async read(caller: Caller, profileId: number): Promise<ChainedProfileHistory | null> {
    const { clientId } = caller;
    const profile = await this.profiles.findOne(clientId, profileId);
    if (!profile || profile.state === 'deleted') return null;
    const categories = this.rules.chainedCategories();
    const chained = new Set(categories);
    const all = profile.data
      ? await this.history.allEntries(
          clientId,
          profileId,
          profile.historyPages ?? 0,
          profile.appliedSeq,
        )
      : [];
    const view = viewOf(caller);
    const entries = all
      .filter((entry) => chained.has(entry.category))
      .map((entry) => ({
        entry,
        // A merge entry (no rule module owns it) is linked by its hash only.
        visible: this.rules.history(entry.category)?.canSee(view, entry) ?? false,
      }));
    return {
      clientId,
      profileId,
      appliedSeq: profile.appliedSeq,
      head: profile.historyChainHead ?? null,
      categories,
      entries,
    };
  }
}
