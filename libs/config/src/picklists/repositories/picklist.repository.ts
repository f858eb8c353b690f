import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../../common/revision-store';
import { StoredPicklist } from '../domain/picklist.schema';

/** The `config_picklists` revisions; every method is scoped by client id. */
@Injectable()
export class PicklistRepository extends RevisionStore<StoredPicklist> {
  constructor(@InjectModel(StoredPicklist.name) picklists: Model<StoredPicklist>) {
    super(picklists, 'picklistId');
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.findByNameKeys(clientId, nameKeys)).map((picklist) => picklist.Name);
  }

  async namesHeldBy(clientId: string, entryId: number): Promise<string | null> {
    return (await this.findOne(clientId, entryId))?.Name ?? null;
  }
}
