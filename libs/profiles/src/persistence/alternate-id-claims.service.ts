import { Injectable } from '@nestjs/common';
import { ConflictError, RetryLaterError } from '@app/shared';
import { alternateIdKey } from '../domain/element-rules';
import type { StoredAlternateId } from '../domain/profile-data.schema';
import { AlternateIdClaimRepository } from './alternate-id-claim.repository';
import { ProfileRepository } from './profile.repository';
import { ProfileWriteRepository } from './profile-write.repository';

/**
 * How long a profile shell with no write yet counts as "being created" (its creator took
 * the id and is claiming its alternate ids): its claims are not stale in that time.
 */
const CREATING_GRACE_MS = 60000;
const POLL_MS = 25;

export interface AlternateIdPair {
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
    // null as absent: the body's optional lists may be sent as null.
    pairs?: AlternateIdPair[] | null,
  ): Promise<AlternateIdPair[]> {
    const claimed: AlternateIdPair[] = [];
    for (const pair of (pairs ?? []).filter((p) => p.IsActive !== false)) {
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
      throw new ConflictError(
        `AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}" belongs to another profile`,
      );
    }
    return claimed;
  }

  /**
   * Claims the pair for the profile only if nobody holds it (no holder read, no stale
   * check): true when the claim is ours now. Concurrent calls share one engine command.
   */
  claimIfFree(clientId: string, profileId: number, pair: AlternateIdPair): Promise<boolean> {
    return this.claims.claimIfFree(clientId, pair.AlternateIdType, pair.AlternateId, profileId);
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

  /**
   * The profile a write by alternate id goes to: the holder of the pair's claim, once its
   * create is accepted (a holder still being created is waited for up to `waitMs`, so a
   * write queued behind its create cannot take the create's sequence number). Null when
   * nobody holds the pair, or only a stale claim does. 503 if the creator never accepts.
   */
  async currentHolder(
    clientId: string,
    pair: AlternateIdPair,
    waitMs: number,
  ): Promise<number | null> {
    const deadline = Date.now() + waitMs;
    for (;;) {
      const holderId = await this.claims.holder(clientId, pair.AlternateIdType, pair.AlternateId);
      if (holderId === null) return null;
      const holder = await this.profiles.findOne(clientId, holderId);
      if (holder && (await this.beingCreated(clientId, holderId, holder))) {
        if (Date.now() >= deadline) {
          throw new RetryLaterError(
            `The profile holding AlternateId "${pair.AlternateId}" of type "${pair.AlternateIdType}" is still being created; retry`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        continue;
      }
      return (await this.isStale(clientId, holderId, pair)) ? null : holderId;
    }
  }

  /** A shell whose creator has claimed its id but not yet accepted its create write. */
  private async beingCreated(
    clientId: string,
    holderId: number,
    holder: { state: string; createdAt?: Date; appliedSeq: number },
  ): Promise<boolean> {
    if (holder.state !== 'pending' || creatingAge(holder) >= CREATING_GRACE_MS) return false;
    if (holder.appliedSeq > 0) return false;
    return !(await this.writes.findSeq(clientId, holderId, 1));
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
    // Read the profile, then the write after its appliedSeq (both by _id). If that write
    // does not exist, no write was accepted after the profile as read, so the profile is
    // current; if it exists, the holder has a write pending (or applied meanwhile: then
    // "not stale" is merely cautious). A shell with no write at all is being created.
    const holder = await this.profiles.findOne(clientId, holderId);
    const next = holder
      ? await this.writes.findSeq(clientId, holderId, holder.appliedSeq + 1)
      : null;
    const pending = next !== null;
    const anyWrite = (holder?.appliedSeq ?? 0) > 0 || pending;
    if (holder?.state === 'pending' && !anyWrite && creatingAge(holder) < CREATING_GRACE_MS)
      return false;
    if (holder?.state !== 'deleted' && pending) return false;
    const key = pairKey(pair);
    return !(holder?.data?.AlternateIds ?? []).some(
      (p) => p.IsActive !== false && pairKey(p) === key,
    );
  }
}

function creatingAge(holder: { createdAt?: Date }): number {
  return Date.now() - (holder.createdAt?.getTime() ?? 0);
}

function pairKey(pair: AlternateIdPair): string {
  return alternateIdKey(pair.AlternateIdType, pair.AlternateId);
}
