import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from './revision-store';
import { StoredPicklist } from './picklist.schema';

/** The `config_picklists` revisions; every method is scoped by client id. */
@Injectable()
export class PicklistRepository {
  private readonly store: RevisionStore<StoredPicklist>;

  constructor(@InjectModel(StoredPicklist.name) picklists: Model<StoredPicklist>) {
    this.store = new RevisionStore(picklists, 'picklistId');
  }

  findOne(clientId: string, picklistId: number): Promise<StoredPicklist | null> {
    return this.store.findOne(clientId, picklistId);
  }

  list(clientId: string): Promise<StoredPicklist[]> {
    return this.store.list(clientId);
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.store.findByNameKeys(clientId, nameKeys)).map((picklist) => picklist.Name);
  }

  /** Stores the first revision of each new picklist (their ids are claimed, so none exists). */
  async insertAll(picklists: StoredPicklist[]): Promise<void> {
    for (const picklist of picklists) {
      if (!(await this.store.insertRevision(picklist))) {
        throw new Error(`Picklist revision ${picklist._id} exists already`);
      }
    }
  }

  /**
   * Stores the next revision of a picklist; false when another writer stored that revision
   * first (the caller re-reads and redoes its change).
   */
  async saveRevision(picklist: StoredPicklist): Promise<boolean> {
    if (!(await this.store.insertRevision(picklist))) return false;
    await this.store.supersedeBefore(picklist.clientId, picklist.picklistId, picklist.revision);
    return true;
  }
}
