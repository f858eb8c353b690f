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
