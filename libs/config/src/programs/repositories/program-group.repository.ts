import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { isDuplicateKeyError } from '@app/shared';
import type { Model } from 'mongoose';
import { StoredProgramGroup, programGroupRevisionKey } from '../domain/program-group.schema';
import { latestRevisions } from './latest-revisions';

/** The `config_program_groups` collection of group revisions; scoped by client. */
@Injectable()
export class ProgramGroupRepository {
  constructor(
    @InjectModel(StoredProgramGroup.name) private readonly groups: Model<StoredProgramGroup>,
  ) {}

  async listAll(clientId: string): Promise<StoredProgramGroup[]> {
    const revisions = await this.groups
      .find({ clientId, current: true })
      .sort({ groupId: 1, revision: -1 })
      .lean<StoredProgramGroup[]>()
      .exec();
    return latestRevisions(revisions, (group) => group.groupId);
  }

  async findById(clientId: string, groupId: number): Promise<StoredProgramGroup | null> {
    const [latest] = await this.groups
      .find({ clientId, groupId })
      .sort({ revision: -1 })
      .limit(1)
      .lean<StoredProgramGroup[]>()
      .exec();
    return latest ?? null;
  }

  /** Stores the first revision of new groups. */
  async insertAll(groups: StoredProgramGroup[]): Promise<void> {
    await this.groups.insertMany(
      groups.map((group) => ({
        ...group,
        _id: programGroupRevisionKey(group.clientId, group.groupId, 0),
        revision: 0,
        current: true,
      })),
    );
  }

  /** Removes groups whose create failed half-way (never called on an answered create). */
  async removeUnanswered(clientId: string, groupIds: number[]): Promise<void> {
    if (groupIds.length) await this.groups.deleteMany({ clientId, groupId: { $in: groupIds } });
  }

  /** Stores the revision after `expectedRevision`; false when another writer stored it. */
  async saveNextRevision(group: StoredProgramGroup, expectedRevision: number): Promise<boolean> {
    const revision = expectedRevision + 1;
    try {
      await this.groups.create({
        ...group,
        _id: programGroupRevisionKey(group.clientId, group.groupId, revision),
        revision,
        current: true,
      });
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
    await this.groups.updateMany(
      {
        clientId: group.clientId,
        groupId: group.groupId,
        revision: { $lt: revision },
        current: true,
      },
      { $set: { current: false } },
    );
    return true;
  }
}
