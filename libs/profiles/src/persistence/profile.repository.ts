import type { SearchCondition } from '../domain/profile-rules.port';
import { Injectable } from '@nestjs/common';
import {
  acrossTenants,
  insertEach,
  type InsertOutcome,
  isDuplicateKeyError,
  type TenantKey,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import type { Collection } from 'mongodb';
import { Profile, ProfileIdHint } from '../domain/profile.schema';
import { profileIdHintKey, profileKey } from '../keys';

const INT32_MAX = 2147483647;

/** Documents read at once (each by `_id`) by readIdRange. */
const READ_PARALLEL = 20;

/** What one read of a range of profile ids found, as stored. */
export interface StoredProfilePage {
  /** Every document of the range (pending shells and tombstones included), in id order. */
  profiles: Profile[];
  /** The next profile id to read. */
  next: number;
  /** true: an id past the client's last claimed id is missing, so no profile follows. */
  done: boolean;
}

/** The `profiles` collection; every method is scoped by client id. */
@Injectable()
export class ProfileRepository {
  /** Per client, the reservation of new ids under way in this process (its end). */
  private readonly reserving = new Map<string, Promise<void>>();

  constructor(
    @InjectTenantScoped(Profile) private readonly profiles: TenantScopedModel<Profile>,
    @InjectTenantScoped(ProfileIdHint) private readonly hints: TenantScopedModel<ProfileIdHint>,
  ) {}

  /**
   * Every client that ever claimed a profile id, with the highest id its hint records: a
   * deliberate cross-tenant read of `profile_id_hints` (one small document per client, not
   * per profile), only for planning the search key index's rebuild after Redis lost it.
   */
  async crossTenantClientsForIndexRebuild(): Promise<{ clientId: string; last: number }[]> {
    const hints = await this.hints
      .find(acrossTenants(), { _id: 1, last: 1 })
      .lean<ProfileIdHint[]>()
      .exec();
    return hints.map((hint) => ({ clientId: hint._id, last: hint.last }));
  }

  findOne(clientId: string, profileId: number): Promise<Profile | null> {
    return this.profiles.findStoredById<Profile>(profileKey(clientId, profileId));
  }

  /**
   * The highest profile id the client's hint records (0: none). Ids are claimed densely
   * from 1; ids past it may exist too (a hint update lost), but none after a missing one.
   * Below it an id may be missing: one reserved by reserveNewProfileIds and left unused.
   */
  /**
   * Profile ids `from` to `from + count - 1` of a client, each by `_id` (ids are claimed
   * densely from 1, so no scan or filter is needed: the bulk export and the reports'
   * rebuild page through a client this way), stopping early at the end of its ids.
   */
  async readIdRange(clientId: string, from: number, count: number): Promise<StoredProfilePage> {
    const last = await this.lastClaimedId(clientId);
    const profiles: Profile[] = [];
    const end = from + count;
    for (let id = from; id < end; id += READ_PARALLEL) {
      const ids = Array.from({ length: Math.min(READ_PARALLEL, end - id) }, (_, i) => id + i);
      const docs = await Promise.all(ids.map((n) => this.findOne(clientId, n)));
      for (let i = 0; i < ids.length; i++) {
        const doc = docs[i];
        // Below the hint's last an id may be missing (reserved, unused); past it, the end.
        if (!doc) {
          if (ids[i] > last) return { profiles, next: ids[i], done: true };
          continue;
        }
        profiles.push(doc);
      }
    }
    return { profiles, next: end, done: false };
  }

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
   * Reserves `count` new profile ids of a client for a bulk import's batch of new profiles
   * (CreateImportedProfilesHandler), by raising the hint over them: the profiles are then
   * inserted whole under these ids, no shell first. A claim that read the hint before it
   * was raised may still take one of them (its shell insert wins; the record's insert finds
   * the id taken). Raising the hint first keeps the ids dense past it (what
   * ProfileExportReader relies on): an id of the block left unused lies below the hint,
   * where a missing id is passed over. The reservations of one process for one client run
   * one after the other (a bulk import reserves its next batch's ids while it saves a
   * batch): two at once would read the same hint and take the same block.
   */
  reserveNewProfileIds(clientId: string, count: number): Promise<number[]> {
    if (count <= 0) return Promise.resolve([]);
    const before = this.reserving.get(clientId) ?? Promise.resolve();
    const reserved = before.then(() => this.reserveBlock(clientId, count));
    const settled = reserved.then(
      () => undefined,
      () => undefined,
    );
    this.reserving.set(clientId, settled);
    void settled.then(() => {
      if (this.reserving.get(clientId) === settled) this.reserving.delete(clientId);
    });
    return reserved;
  }

  private async reserveBlock(clientId: string, count: number): Promise<number[]> {
    const from = (await this.lastClaimedId(clientId)) + 1;
    const last = from + count - 1;
    if (last > INT32_MAX) throw new Error(`Client ${clientId} has no free int32 profile id left`);
    await this.hints.updateOne(
      { _id: profileIdHintKey(clientId) },
      { $max: { last } },
      { upsert: true },
    );
    return Array.from({ length: count }, (_, i) => from + i);
  }

  /**
   * Inserts new profiles whole, in one unordered command: per profile, whether it was
   * inserted or its id was taken. Only CreateImportedProfilesHandler, under reserved ids.
   */
  insertNew(profiles: Profile[]): Promise<(InsertOutcome | Error)[]> {
    if (!profiles.length) return Promise.resolve([]);
    return insertEach(this.profiles.collection as unknown as Collection<Profile>, profiles);
  }

  /**
   * Removes a profile CreateImportedProfilesHandler inserted whose match pair turned out to
   * be held, before its id was known to anyone (by `_id`; no tombstone is needed).
   */
  async removeUnclaimed(_id: TenantKey): Promise<void> {
    await this.profiles.collection.deleteOne({ _id } as object);
  }

  /**
   * One page of search candidates: active profiles of the client after `afterProfileId`
   * meeting every condition, in profile id order, at most `limit` documents. A scan on the
   * embedded engine: only the fallback of SearchCandidates while the key index is rebuilt.
   */
  findSearchCandidates(
    clientId: string,
    conditions: SearchCondition[],
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
