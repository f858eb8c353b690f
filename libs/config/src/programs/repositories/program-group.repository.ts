import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../../common/revision-store';
import { StoredProgramGroup, programGroupRevisionKey } from '../domain/program-group.schema';

/** The `config_program_groups` collection of group revisions; scoped by client. */
@Injectable()
export class ProgramGroupRepository {
  private readonly store: RevisionStore<StoredProgramGroup>;

  constructor(@InjectModel(StoredProgramGroup.name) groups: Model<StoredProgramGroup>) {
    this.store = new RevisionStore(groups, 'groupId');
  }

  listAll(clientId: string): Promise<StoredProgramGroup[]> {
    return this.store.list(clientId);
  }

  findById(clientId: string, groupId: number): Promise<StoredProgramGroup | null> {
    return this.store.findOne(clientId, groupId);
  }

  /** The name of group `groupId`, or null (what a name claim asks of its holder). */
  async nameHeldBy(clientId: string, groupId: number): Promise<string | null> {
    return (await this.findById(clientId, groupId))?.Name ?? null;
  }

  /** The group `groupId` (404 when unknown) or, without one, every group. */
  listOrOne(clientId: string, groupId: number | undefined): Promise<StoredProgramGroup[]> {
    return this.store.listOrOne(clientId, groupId, 'Program group');
  }

  /** Stores the first revision of new groups. */
  insertAll(groups: StoredProgramGroup[]): Promise<void> {
    return this.store.insertAll(
      groups.map((group) => ({
        ...group,
        _id: programGroupRevisionKey(group.clientId, group.groupId, 0),
        revision: 0,
        current: true,
      })),
    );
  }

  /** Removes groups whose create failed half-way (never called on an answered create). */
  removeUnanswered(clientId: string, groupIds: number[]): Promise<void> {
    return this.store.removeUnanswered(clientId, groupIds);
  }

  /** Stores the revision after `expectedRevision`; false when another writer stored it. */
  saveNextRevision(group: StoredProgramGroup, expectedRevision: number): Promise<boolean> {
    const revision = expectedRevision + 1;
    return this.store.saveRevision({
      ...group,
      _id: programGroupRevisionKey(group.clientId, group.groupId, revision),
      revision,
      current: true,
    });
  }
}
