import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError, acrossTenants, insertEach, TenantScopedModel } from '@app/shared';
import type { Collection } from 'mongodb';
import type { Model } from 'mongoose';
import { Profile, ProfileIdHint } from '../domain/profile.schema';
import { profileIdHintKey, profileKey } from '../keys';

const INT32_MAX = 2147483647;

/** The `profiles` collection; every method is scoped by client id. */
@Injectable()
export class ProfileRepository {
  private readonly profiles: TenantScopedModel<Profile>;
  private readonly hints: TenantScopedModel<ProfileIdHint>;

  constructor(
    @InjectModel(Profile.name) profiles: Model<Profile>,
    @InjectModel(ProfileIdHint.name) hints: Model<ProfileIdHint>,
  ) {
    this.profiles = new TenantScopedModel(profiles);
    this.hints = new TenantScopedModel(hints);
  }

  /**
   * Every profile of every tenant, in batches (the fields a search key needs): a
   * deliberate cross-tenant scan, only for rebuilding the search key index after Redis lost
   * it. Never on a request path.
   */
  crossTenantScanForIndexRebuild(
    batchSize: number,
  ): AsyncIterable<Pick<Profile, 'clientId' | 'profileId' | 'state' | 'data'>> {
    return this.profiles
      .find(acrossTenants(), { clientId: 1, profileId: 1, state: 1, data: 1 })
      .lean<Profile>()
      .batchSize(batchSize)
      .cursor();
  }

  findOne(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findById(profileKey(clientId, profileId)).lean<Profile>().exec();
  }

  /**
   * The highest profile id the client's hint records (0: none). Ids are claimed densely
   * from 1; ids past it may exist too (a hint update lost), but none after a missing one.
   * Below it an id may be missing: a block reserved by claimNewProfileIds whose shell was
   * never inserted (a crash between the hint and the shells).
   */
  async lastClaimedId(clientId: string): Promise<number> {
    const hint = await this.hints.findById(profileIdHintKey(clientId)).lean<ProfileIdHint>().exec();
    return hint?.last ?? 0;
  }

  /**
   * Claims the next free profile id of a client by inserting its pending shell. The
   * hint only says where to start looking; the insert (unique `_id`) decides.
   */
  async claimNewProfileId(clientId: string): Promise<number> {
    const hint = await this.hints.findById(profileIdHintKey(clientId)).lean<ProfileIdHint>().exec();
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
        .updateOne(
          { _id: profileIdHintKey(clientId) },
          { $max: { last: candidate } },
          { upsert: true },
        )
        .catch(
          // A lost hint update only makes the next claim probe further.
          () => undefined,
        );
      return candidate;
    }
    throw new Error(`Client ${clientId} has no free int32 profile id left`);
  }

  /**
   * Claims `count` new profile ids of a client at once (a bulk import's batch of creates):
   * the hint is raised over the block first, then the block's shells go in one unordered
   * insert; ids another writer took meanwhile are replaced from a further block. Raising
   * the hint first keeps the ids dense past it (what ProfileExportReader relies on): an id
   * of the block left without a shell (a crash in between) lies below the hint, where a
   * missing id is passed over. Two engine commands for the whole block instead of three
   * per id.
   */
  async claimNewProfileIds(clientId: string, count: number): Promise<number[]> {
    const claimed: number[] = [];
    let from = (await this.lastClaimedId(clientId)) + 1;
    while (claimed.length < count) {
      const ids = Array.from({ length: count - claimed.length }, (_, i) => from + i);
      const last = ids[ids.length - 1];
      if (last > INT32_MAX) throw new Error(`Client ${clientId} has no free int32 profile id left`);
      await this.hints.updateOne(
        { _id: profileIdHintKey(clientId) },
        { $max: { last } },
        { upsert: true },
      );
      const now = new Date();
      const outcomes = await insertEach(
        this.profiles.collection as unknown as Collection<Profile>,
        ids.map((profileId) => ({
          _id: profileKey(clientId, profileId),
          clientId,
          profileId,
          state: 'pending',
          appliedSeq: 0,
          // Set here: the driver's insert bypasses the schema's timestamps.
          createdAt: now,
          updatedAt: now,
        })),
      );
      outcomes.forEach((outcome, i) => {
        if (outcome instanceof Error) throw outcome;
        if (outcome === 'inserted') claimed.push(ids[i]);
      });
      from = last + 1;
    }
    return claimed;
  }

  /**
   * One page of search candidates: active profiles of the client after `afterProfileId`
   * meeting every condition, in profile id order, at most `limit` documents. A scan on the
   * embedded engine: only the fallback of SearchCandidates while the key index is rebuilt.
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
    // Through the driver, not mongoose: casting the whole profile through the schema was a
    // third of the worker's CPU, and the profile is already in the stored shape (a check over
    // the e2e suite found the cast changing nothing but dropping empty objects, which the
    // read model keeps; test/profiles/profile-read-model.e2e-spec.ts guards it).
    await this.profiles.collection.replaceOne({ _id: profile._id } as object, {
      ...profile,
      updatedAt: new Date(),
    });
  }
}
