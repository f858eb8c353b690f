import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { Profile } from '../domain/profile.schema';

/**
 * The consent-expiry job's candidate query. Unlike ProfileRepository it reads across
 * clients: the job serves every tenant, and each profile it returns carries its clientId.
 */
@Injectable()
export class ExpiryCandidates {
  constructor(@InjectModel(Profile.name) private readonly profiles: Model<Profile>) {}

  /**
   * One page of active profiles with something due by `asOf` (their nextExpiryAt), after
   * `afterId` in `_id` order. Candidates only: the caller checks each element exactly.
   */
  page(asOf: Date, afterId: string, limit: number): Promise<Profile[]> {
    return this.profiles
      .find({ state: 'active', nextExpiryAt: { $lte: asOf }, _id: { $gt: afterId } })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<Profile[]>()
      .exec();
  }
}
