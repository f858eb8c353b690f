import { Injectable } from '@nestjs/common';
import { RetryLaterError, textKey } from '@app/shared';
import { phoneDigits } from '../domain/text';
import type { ProfileSnapshot } from '../read/profile-read-model.service';
import { ProfileKeyIndex } from '../read/search/profile-key-index.service';
import {
  type AlternateIdPair,
  AlternateIdClaims,
} from '../persistence/alternate-id-claims.service';
import { ExistingProfiles } from '../persistence/existing-profiles.service';

export type { ProfileSnapshot };

/** The most profiles a value's holders may count before the lookup is refused (403-like). */
export const MAX_VALUE_HOLDERS = 50;

/**
 * Profiles as GET reads them, for other modules' read-only use cases (contact decisions):
 * by id from the read model (no database command when warm, two `_id` reads to rebuild a
 * lost entry), by alternate id through its claim (one `_id` read), and the holders of an
 * email address or phone number through the search key index (Redis) and then the read
 * model. Never a scan: while the key index is being rebuilt a value lookup answers 503.
 * Snapshots are shared and frozen: callers must not change them.
 */
@Injectable()
export class ProfileSnapshots {
  constructor(
    private readonly existing: ExistingProfiles,
    private readonly alternateIds: AlternateIdClaims,
    private readonly keyIndex: ProfileKeyIndex,
  ) {}

  /** The profile as GET sees it; null when it does not exist for a request (404). */
  byId(clientId: string, profileId: number): Promise<ProfileSnapshot | null> {
    return this.existing.find(clientId, profileId);
  }

  /**
   * The survivor a merged profile was merged into (what GET's 404 names); null when the
   * profile is not merged (or not there). Read only for ids `byId` did not find.
   */
  async survivorOf(clientId: string, profileId: number): Promise<number | null> {
    const profile = await this.existing.findAny(clientId, profileId);
    return profile?.state === 'merged' ? (profile.mergedInto ?? null) : null;
  }

  /** The holder of an active alternate id pair, as GET by alternate id finds it; or null. */
  async byAlternateId(clientId: string, pair: AlternateIdPair): Promise<ProfileSnapshot | null> {
    const holder = await this.existing.findClaimHolder(clientId, pair);
    if (holder) return holder;
    const profileId = await this.alternateIds.currentHolder(clientId, pair, 0).catch(() => null);
    return profileId === null ? null : this.existing.find(clientId, profileId);
  }

  /**
   * The ids of the client's profiles whose data holds the email address (or phone number),
   * active or not, from the search key index: a superset the caller checks exactly. 503
   * while the index is not built (the alternative is a scan).
   */
  async holderIds(clientId: string, kind: 'email' | 'phone', value: string): Promise<number[]> {
    const key =
      kind === 'email' ? `email:${textKey(value)}` : `phone:${Number(phoneDigits(value))}`;
    const ids = await this.keyIndex.candidates(clientId, [[key]]);
    if (ids === null) {
      throw new RetryLaterError('The search key index is being rebuilt; retry in a moment');
    }
    return ids;
  }
}
