import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { Profile, ProfileIdHint } from '../domain/profile.schema';

const INT32_MAX = 2147483647;

export function profileKey(clientId: string, profileId: number): string {
  return `${clientId}|${profileId}`;
}

/** The `profiles` collection; every method is scoped by client id. */
@Injectable()
export class ProfileRepository {
  constructor(
    @InjectModel(Profile.name) private readonly profiles: Model<Profile>,
    @InjectModel(ProfileIdHint.name) private readonly hints: Model<ProfileIdHint>,
  ) {}

  findOne(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findById(profileKey(clientId, profileId)).lean<Profile>().exec();
  }

  /**
   * Claims the next free profile id of a client by inserting its pending shell. The
   * hint only says where to start looking; the insert (unique `_id`) decides.
   */
  async claimNewProfileId(clientId: string): Promise<number> {
    const hint = await this.hints.findById(clientId).lean<ProfileIdHint>().exec();
    for (let candidate = (hint?.last ?? 0) + 1; candidate <= INT32_MAX; candidate++) {
      try {
        await this.profiles.create({
          _id: profileKey(clientId, candidate),
          clientId,
          profileId: candidate,
          state: 'pending',
          appliedSeq: 0,
        });
      } catch (error) {
        if (isDuplicateKeyError(error)) continue;
        throw error;
      }
      await this.hints
        .updateOne({ _id: clientId }, { $max: { last: candidate } }, { upsert: true })
        .catch(
          // A lost hint update only makes the next claim probe further.
          () => undefined,
        );
      return candidate;
    }
    throw new Error(`Client ${clientId} has no free int32 profile id left`);
  }

  /**
   * Profiles of the client (not deleted) carrying tag `key`. Tags have no inactive state
   * on the wire (a write removes them), so every stored tag counts.
   */
  countWithTag(clientId: string, key: string): Promise<number> {
    return this.profiles
      .countDocuments({ clientId, state: 'active', 'data.ProfileTags.Key': key })
      .exec();
  }

  /** Profiles of the client (not deleted) carrying the tag. */
  findWithTag(clientId: string, key: string): Promise<Pick<Profile, 'profileId'>[]> {
    return this.profiles
      .find({ clientId, state: 'active', 'data.ProfileTags.Key': key }, { profileId: 1 })
      .lean<Profile[]>()
      .exec();
  }

  /** Profiles of the client (not deleted) storing the alternate id pair, active or not. */
  findWithAlternateIdKey(clientId: string, key: string): Promise<Profile[]> {
    return this.profiles
      .find({ clientId, state: 'active', 'data.AlternateIds.Key': key })
      .sort({ profileId: -1 })
      .limit(50)
      .lean<Profile[]>()
      .exec();
  }

  /**
   * One page of search candidates: active profiles of the client after `afterProfileId`
   * meeting every condition, in profile id order, at most `limit` documents.
   */
  findSearchCandidates(
    clientId: string,
    conditions: Record<string, unknown>[],
    afterProfileId: number,
    limit: number,
  ): Promise<Profile[]> {
    return this.profiles
      .find({
        clientId,
        state: 'active',
        profileId: { $gt: afterProfileId },
        ...(conditions.length ? { $and: conditions } : {}),
      })
      .sort({ profileId: 1 })
      .limit(limit)
      .lean<Profile[]>()
      .exec();
  }

  /**
   * Saves the whole profile by `_id`. Only the worker saves profiles, and only while it
   * holds the profile's lease, having read it under that lease: a filter on appliedSeq
   * would make the save a scan on the embedded engine (it serves only `{_id}` filters).
   */
  async replace(profile: Profile): Promise<void> {
    await this.profiles.replaceOne({ _id: profile._id }, profile);
  }
}
