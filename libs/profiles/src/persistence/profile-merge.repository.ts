import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { ProfileMergeRecord } from '../domain/profile-merge-record.schema';
import { profileMergeKey } from '../keys';

/** The `profile_merges` collection (see ProfileMergeRecord): every command by `_id`. */
@Injectable()
export class ProfileMergeRepository {
  constructor(
    @InjectTenantScoped(ProfileMergeRecord)
    private readonly records: TenantScopedModel<ProfileMergeRecord>,
  ) {}

  /** The record absorbing the profile, if any. */
  async find(clientId: string, absorbedId: number): Promise<ProfileMergeRecord | null> {
    const record = await this.records
      .findById(profileMergeKey(clientId, absorbedId))
      .lean<ProfileMergeRecord>()
      .exec();
    return record?.clientId === clientId ? record : null;
  }

  /** Inserts the record; null when it won, else the record that holds its `_id`. */
  async insert(
    record: Omit<ProfileMergeRecord, '_id'>,
  ): Promise<{ inserted: true } | { inserted: false; existing: ProfileMergeRecord | null }> {
    try {
      await this.records.create({
        ...record,
        _id: profileMergeKey(record.clientId, record.absorbed),
      });
      return { inserted: true };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      return { inserted: false, existing: await this.find(record.clientId, record.absorbed) };
    }
  }

  async noteWrite(clientId: string, absorbedId: number, seq: number): Promise<void> {
    await this.records.updateOne({ _id: profileMergeKey(clientId, absorbedId) }, { $set: { seq } });
  }

  async markDone(clientId: string, absorbedId: number): Promise<void> {
    await this.records.updateOne(
      { _id: profileMergeKey(clientId, absorbedId) },
      { $set: { state: 'done' } },
    );
  }

  /** A refused merge leaves nothing (only when the record names this survivor). */
  async remove(clientId: string, absorbedId: number, survivor: number): Promise<void> {
    const record = await this.find(clientId, absorbedId);
    if (record?.survivor !== survivor) return;
    await this.records.deleteOne({ _id: profileMergeKey(clientId, absorbedId) });
  }
}
