import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { AlternateIdClaim, alternateIdClaimKey } from '../domain/alternate-id-claim.schema';

/** The `alternate_id_claims` collection: which profile holds each alternate id. */
@Injectable()
export class AlternateIdClaimRepository {
  constructor(
    @InjectModel(AlternateIdClaim.name) private readonly claims: Model<AlternateIdClaim>,
  ) {}

  /** Returns the profile that holds the pair after the attempt (ours when it was free). */
  async claim(clientId: string, type: string, value: string, profileId: number): Promise<number> {
    const _id = alternateIdClaimKey(clientId, type, value);
    try {
      await this.claims.create({ _id, clientId, profileId });
      return profileId;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const holder = await this.claims.findOne({ _id, clientId }).lean<AlternateIdClaim>().exec();
    // Released between our insert and this read: try once more.
    return holder ? holder.profileId : this.claim(clientId, type, value, profileId);
  }

  /** The profile that holds the pair now, if any (no claim is taken). */
  async holder(clientId: string, type: string, value: string): Promise<number | null> {
    const claim = await this.claims
      .findOne({ _id: alternateIdClaimKey(clientId, type, value), clientId })
      .lean<AlternateIdClaim>()
      .exec();
    return claim?.profileId ?? null;
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
    try {
      await this.claims.create({
        _id: alternateIdClaimKey(clientId, type, value),
        clientId,
        profileId,
      });
      return profileId;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    return this.holder(clientId, type, value);
  }

  /** Moves a stale claim (its holder no longer has the pair) to another profile. */
  async takeOver(
    clientId: string,
    type: string,
    value: string,
    from: number,
    to: number,
  ): Promise<boolean> {
    const result = await this.claims.updateOne(
      { _id: alternateIdClaimKey(clientId, type, value), clientId, profileId: from },
      { $set: { profileId: to } },
    );
    return result.modifiedCount === 1;
  }

  async release(clientId: string, type: string, value: string, profileId: number): Promise<void> {
    await this.claims.deleteOne({
      _id: alternateIdClaimKey(clientId, type, value),
      clientId,
      profileId,
    });
  }

  async releaseAll(clientId: string, profileId: number): Promise<void> {
    await this.claims.deleteMany({ clientId, profileId });
  }
}
