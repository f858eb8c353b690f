import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { NamedRevisionStore } from '../../common/revision-store';
import { PICKLIST_KIND, StoredPicklist } from '../domain/picklist.schema';

/** The `config_picklists` revisions; every method is scoped by client id. */
@Injectable()
export class PicklistRepository extends NamedRevisionStore<StoredPicklist> {
  constructor(@InjectModel(StoredPicklist.name) picklists: Model<StoredPicklist>) {
    super(picklists, 'picklistId', PICKLIST_KIND, 'Picklist', (picklist) => picklist.Name);
  }
}
