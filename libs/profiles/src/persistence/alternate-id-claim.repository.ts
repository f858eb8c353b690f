import { Injectable } from '@nestjs/common';
import {
  BatchedInserts,
  isDuplicateKeyError,
  type TenantKey,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import type { Collection } from 'mongodb';
import { randomUUID } from 'node:crypto';
import { AlternateIdClaim, AlternateIdClaimEnd } from '../domain/alternate-id-claim.schema';
import { alternateIdClaimEndKey, alternateIdClaimKey } from '../keys';

/** The `alternate_id_claims` collection: which profile holds each alternate id. */
@Injectable()
export class AlternateIdClaimRepository {
  /** Claims taken together (a bulk import's concurrent records) share one engine command. */
  private readonly inserts: BatchedInserts<AlternateIdClaim>;

  constructor(
    @InjectTenantScoped(AlternateIdClaim)
    private readonly claims: TenantScopedModel<AlternateIdClaim>,
    @InjectTenantScoped(AlternateIdClaimEnd)
    private readonly ends: TenantScopedModel<AlternateIdClaimEnd>,
  ) {
    this.inserts = new BatchedInserts(
      () => this.claims.collection as unknown as Collection<AlternateIdClaim>,
    );
  }

  /** Inserts the claim if the pair is free: false when its `_id` is taken. */
  async claimIfFree(
    clientId: string,
    type: string,
    value: string,
    profileId: number,
  ): Promise<boolean> {
    const _id = alternateIdClaimKey(clientId, type, value);
    const outcome = await this.inserts.insert({ _id, clientId, profileId, token: randomUUID() });
    return outcome === 'inserted';
  }

  /** Returns the profile that holds the pair after the attempt (ours when it was free). */
  async claim(clientId: string, type: string, value: string, profileId: number): Promise<number> {
    if (await this.claimIfFree(clientId, type, value, profileId)) return profileId;
    const holder = await this.find(alternateIdClaimKey(clientId, type, value), clientId);
    // Released between our insert and this read: try once more.
    return holder ? holder.profileId : this.claim(clientId, type, value, profileId);
  }

  /** The profile that holds the pair now, if any (no claim is taken). */
  async holder(clientId: string, type: string, value: string): Promise<number | null> {
    const claim = await this.find(alternateIdClaimKey(clientId, type, value), clientId);
    return claim?.profileId ?? null;
  }

  /** By `_id` only (the embedded engine serves no other filter); the tenant checked in code. */
  private async find(_id: TenantKey, clientId: string): Promise<AlternateIdClaim | null> {
    const claim = await this.claims.findById(_id).lean<AlternateIdClaim>().exec();
    return claim?.clientId === clientId ? claim : null;
  }

  /**
   * Claims the pair for the profile if it is free, without looking further: returns the
   * holder after the attempt (ours when the insert won).
   */
  async tryClaim(
    clientId: string,
    type: string,
    value: string,
    profileId: number,
  ): Promise<number | null> {
    if (await this.claimIfFree(clientId, type, value, profileId)) return profileId;
    return this.holder(clientId, type, value);
  }

  /**
   * Moves a stale claim (its holder no longer has the pair) to another profile. Of
   * concurrent takeovers and releases of the same holding only one wins (endHolding).
   */
  async takeOver(
    clientId: string,
    type: string,
    value: string,
    from: number,
    to: number,
  ): Promise<boolean> {
    const _id = alternateIdClaimKey(clientId, type, value);
    const claim = await this.find(_id, clientId);
    if (claim?.profileId !== from || !(await this.endHolding(claim))) return false;
    // The holding is ours to end: no other writer changes this claim until it names `to`.
    await this.claims.updateOne({ _id }, { $set: { profileId: to, token: randomUUID() } });
    return true;
  }

  /** Releases the pair if the profile holds it (only the worker releases, under the lease). */
  async release(clientId: string, type: string, value: string, profileId: number): Promise<void> {
    const _id = alternateIdClaimKey(clientId, type, value);
    const claim = await this.find(_id, clientId);
    if (claim?.profileId === profileId && (await this.endHolding(claim))) {
      await this.claims.deleteOne({ _id });
    }
  }

  /** Inserts the end of the claim's current holding; false when another writer ended it. */
  private async endHolding(claim: AlternateIdClaim): Promise<boolean> {
    const holding = claim.token ?? `legacy:${claim.profileId}`;
    try {
      await this.ends.create({
        _id: alternateIdClaimEndKey(claim.clientId, claim._id, holding),
        at: new Date(),
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }
}
