import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { HistoryEntry } from '../domain/profile-history';
import { HistoryCategory, ProfileHistory } from '../domain/profile-history.schema';

/** The `profile_history` collection: one document per changed item per applied write. */
@Injectable()
export class ProfileHistoryRepository {
  constructor(@InjectModel(ProfileHistory.name) private readonly history: Model<ProfileHistory>) {}

  /** Idempotent: each entry is upserted by its `_id`, so a retried write rewrites the same. */
  async record(entries: HistoryEntry[]): Promise<void> {
    if (!entries.length) return;
    await this.history.bulkWrite(
      entries.map((entry) => ({
        replaceOne: { filter: { _id: entry._id }, replacement: entry, upsert: true },
      })),
      { ordered: false },
    );
  }

  /**
   * One category of a profile's history, written by writes up to `appliedSeq` (the
   * profile as read): entries of a write not saved (yet) are never returned.
   */
  list(
    clientId: string,
    profileId: number,
    category: HistoryCategory,
    appliedSeq: number,
    filterKey?: string,
  ): Promise<ProfileHistory[]> {
    return this.history
      .find({
        clientId,
        profileId,
        category,
        seq: { $lte: appliedSeq },
        ...(filterKey === undefined ? {} : { filterKey }),
      })
      .sort({ seq: 1, n: 1 })
      .lean<ProfileHistory[]>()
      .exec();
  }

  /** The entries of one write: it failed after all, so it changed nothing. */
  async eraseWrite(clientId: string, profileId: number, seq: number): Promise<void> {
    await this.history.deleteMany({ clientId, profileId, seq });
  }

  /** A deleted profile keeps no history. */
  async eraseProfile(clientId: string, profileId: number): Promise<void> {
    await this.history.deleteMany({ clientId, profileId });
  }
}
