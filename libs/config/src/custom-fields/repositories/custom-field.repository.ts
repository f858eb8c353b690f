import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../../common/revision-store';
import { StoredCustomField } from '../domain/custom-field.schema';

/** The `config_custom_fields` revisions; every method is scoped by client id. */
@Injectable()
export class CustomFieldRepository extends RevisionStore<StoredCustomField> {
  constructor(@InjectModel(StoredCustomField.name) fields: Model<StoredCustomField>) {
    super(fields, 'fieldId');
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.findByNameKeys(clientId, nameKeys)).map((field) => field.Name);
  }

  async namesHeldBy(clientId: string, entryId: number): Promise<string | null> {
    return (await this.findOne(clientId, entryId))?.Name ?? null;
  }
}
