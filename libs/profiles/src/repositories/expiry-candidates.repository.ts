import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { EXPIRATION_DATE_PATHS } from '../domain/consent-expiry';
import { Profile } from '../domain/profile.schema';

/**
 * The consent-expiry job's candidate query. Unlike ProfileRepository it reads across
 * clients: the job serves every tenant, and each profile it returns carries its clientId.
 */
@Injectable()
export class ExpiryCandidates {
  constructor(@InjectModel(Profile.name) private readonly profiles: Model<Profile>) {}

  /**
   * One page of active profiles holding an ExpirationDate (as text) up to `bound`, after
   * `afterId` in `_id` order. Candidates only: the caller checks each element exactly.
   */
  page(bound: string, afterId: string, limit: number): Promise<Profile[]> {
    return this.profiles
      .find({
        state: 'active',
        _id: { $gt: afterId },
        $or: EXPIRATION_DATE_PATHS.map((path) => ({ [path]: { $lte: bound } })),
      })
      .sort({ _id: 1 })
      .limit(limit)
      .lean<Profile[]>()
      .exec();
  }
}
