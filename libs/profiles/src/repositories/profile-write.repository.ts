import type { CallerScope } from '../mapping/profile-view';
import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { ProfileWrite, ProfileWriteKind } from '../domain/profile-write.schema';

/** The `profile_writes` collection: accepted writes, their order and their outcome. */
@Injectable()
export class ProfileWriteRepository {
  constructor(@InjectModel(ProfileWrite.name) private readonly writes: Model<ProfileWrite>) {}

  /**
   * Stores an accepted write under the first free sequence number from `fromSeq` on.
   * The unique `_id` makes each number taken once, so acceptance order is total.
   */
  async append(write: {
    clientId: string;
    profileId: number;
    fromSeq: number;
    kind: ProfileWriteKind;
    body?: string;
    userId: string;
    scope?: CallerScope;
  }): Promise<ProfileWrite> {
    for (let seq = Math.max(1, write.fromSeq); ; seq++) {
      const doc: ProfileWrite = {
        _id: `${write.clientId}|${write.profileId}|${seq}`,
        clientId: write.clientId,
        profileId: write.profileId,
        seq,
        kind: write.kind,
        body: write.body,
        userId: write.userId,
        ...(write.scope ? { scope: write.scope } : {}),
        acceptedAt: new Date(),
        status: 'pending',
        attempts: 0,
      };
      try {
        await this.writes.create(doc);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }

  /** The highest sequence number accepted for the profile (0: none): where `append` starts. */
  async lastSeq(clientId: string, profileId: number): Promise<number> {
    const last = await this.writes
      .find({ clientId, profileId }, { seq: 1 })
      .sort({ seq: -1 })
      .limit(1)
      .lean<ProfileWrite[]>()
      .exec();
    return last[0]?.seq ?? 0;
  }

  async hasAny(clientId: string, profileId: number): Promise<boolean> {
    return (await this.lastSeq(clientId, profileId)) > 0;
  }

  pendingFor(clientId: string, profileId: number, limit: number): Promise<ProfileWrite[]> {
    return this.writes
      .find({ clientId, profileId, status: 'pending' })
      .sort({ seq: 1 })
      .limit(limit)
      .lean<ProfileWrite[]>()
      .exec();
  }

  async hasPending(clientId: string, profileId: number): Promise<boolean> {
    const found = await this.writes
      .findOne({ clientId, profileId, status: 'pending' }, { _id: 1 })
      .lean()
      .exec();
    return found !== null;
  }

  /** Which of these profiles have a write not yet applied (one query for a whole answer). */
  async profilesWithPending(clientId: string, profileIds: number[]): Promise<Set<number>> {
    if (!profileIds.length) return new Set();
    const pending = await this.writes
      .find({ clientId, status: 'pending', profileId: { $in: profileIds } }, { profileId: 1 })
      .lean<ProfileWrite[]>()
      .exec();
    return new Set(pending.map((write) => write.profileId));
  }

  findById(clientId: string, id: string): Promise<ProfileWrite | null> {
    return this.writes.findOne({ _id: id, clientId }).lean<ProfileWrite>().exec();
  }

  listFor(clientId: string, profileId: number, limit: number): Promise<ProfileWrite[]> {
    return this.writes
      .find({ clientId, profileId }, { body: 0 })
      .sort({ seq: -1 })
      .limit(limit)
      .lean<ProfileWrite[]>()
      .exec();
  }

  async markApplied(clientId: string, id: string): Promise<void> {
    await this.writes.updateOne(
      { _id: id, clientId, status: 'pending' },
      { $set: { status: 'applied', appliedAt: new Date() } },
    );
  }

  async markFailed(clientId: string, id: string, reason: string): Promise<void> {
    await this.writes.updateOne(
      { _id: id, clientId, status: 'pending' },
      { $set: { status: 'failed', appliedAt: new Date(), failureReason: reason } },
    );
  }

  /** Counts one failed attempt; returns the new count. */
  async countAttempt(clientId: string, id: string): Promise<number> {
    await this.writes.updateOne({ _id: id, clientId }, { $inc: { attempts: 1 } });
    const write = await this.findById(clientId, id);
    return write?.attempts ?? 0;
  }

  /** A deleted profile keeps no personal data: the bodies of its writes are erased. */
  async eraseBodies(clientId: string, profileId: number): Promise<void> {
    await this.writes.updateMany({ clientId, profileId }, { $unset: { body: 1 } });
  }

  /** Profiles that have a pending write accepted before `before` (for the sweeper). */
  async staleProfiles(
    before: Date,
    limit: number,
  ): Promise<{ clientId: string; profileId: number }[]> {
    const stale = await this.writes
      .find({ status: 'pending', acceptedAt: { $lt: before } }, { clientId: 1, profileId: 1 })
      .limit(limit)
      .lean<ProfileWrite[]>()
      .exec();
    const unique = new Map(stale.map((w) => [`${w.clientId}|${w.profileId}`, w]));
    return [...unique.values()].map((w) => ({ clientId: w.clientId, profileId: w.profileId }));
  }
}
