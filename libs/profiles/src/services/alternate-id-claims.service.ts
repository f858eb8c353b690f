import { Injectable } from '@nestjs/common';
import { ApiError } from '@app/shared';
import { normText } from '../domain/element-rules';
import type { StoredAlternateId } from '../domain/profile-data.schema';
import { AlternateIdClaimRepository } from '../repositories/alternate-id-claim.repository';
import { ProfileRepository } from '../repositories/profile.repository';
import { ProfileWriteRepository } from '../repositories/profile-write.repository';

interface AlternateIdPair {
  AlternateIdType: string;
  AlternateId: string;
  IsActive?: boolean;
}

/**
 * Uniqueness of alternate ids per type across a client's profiles, under concurrent
 * writers: a write that adds a pair claims it before it is accepted (409 when another
 * profile holds it); the worker releases pairs a profile no longer has.
 */
@Injectable()
export class AlternateIdClaims {
  constructor(
    private readonly claims: AlternateIdClaimRepository,
    private readonly profiles: ProfileRepository,
    private readonly writes: ProfileWriteRepository,
  ) {}

  /** Claims every active pair of the body for the profile; returns the pairs newly claimed. */
  async claimAll(
    clientId: string,
    profileId: number,
    pairs: AlternateIdPair[] = [],
  ): Promise<AlternateIdPair[]> {
    const claimed: AlternateIdPair[] = [];
    for (const pair of pairs.filter((p) => p.IsActive !== false)) {
      const holder = await this.claims.claim(
        clientId,
        pair.AlternateIdType,
        pair.AlternateId,
        profileId,
      );
      if (holder === profileId) {
        claimed.push(pair);
        continue;
      }
      if (await this.isStale(clientId, holder, pair)) {
        if (
          await this.claims.takeOver(
            clientId,
            pair.AlternateIdType,
            pair.AlternateId,
            holder,
            profileId,
          )
        ) {
          claimed.push(pair);
          continue;
        }
      }
      await this.releasePairs(clientId, profileId, claimed);
      throw ApiError.conflict(
        `AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}" belongs to another profile`,
      );
    }
    return claimed;
  }

  async releasePairs(clientId: string, profileId: number, pairs: AlternateIdPair[]): Promise<void> {
    for (const pair of pairs) {
      await this.claims.release(clientId, pair.AlternateIdType, pair.AlternateId, profileId);
    }
  }

  /** Pairs active before a write and not after it: their claims are released. */
  async releaseDropped(
    clientId: string,
    profileId: number,
    before: StoredAlternateId[] = [],
    after: StoredAlternateId[] = [],
  ): Promise<void> {
    const kept = new Set(after.filter((p) => p.IsActive !== false).map(pairKey));
    const dropped = before.filter((p) => p.IsActive !== false && !kept.has(pairKey(p)));
    await this.releasePairs(clientId, profileId, dropped);
  }

  releaseAll(clientId: string, profileId: number): Promise<void> {
    return this.claims.releaseAll(clientId, profileId);
  }

  /**
   * A claim is stale when its holder neither has the pair nor has a write pending that
   * could add it (a crash between a save and a release leaves such claims behind).
   */
  private async isStale(
    clientId: string,
    holderId: number,
    pair: AlternateIdPair,
  ): Promise<boolean> {
    const holder = await this.profiles.findOne(clientId, holderId);
    if (holder?.state !== 'deleted' && (await this.writes.hasPending(clientId, holderId)))
      return false;
    const key = pairKey(pair);
    return !(holder?.data?.AlternateIds ?? []).some(
      (p) => p.IsActive !== false && pairKey(p) === key,
    );
  }
}

function pairKey(pair: AlternateIdPair): string {
  return `${normText(pair.AlternateIdType)}|${normText(pair.AlternateId)}`;
}
