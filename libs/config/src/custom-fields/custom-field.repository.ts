import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../picklists/revision-store';
import { StoredCustomField } from './custom-field.schema';

/** The `config_custom_fields` revisions; every method is scoped by client id. */
@Injectable()
export class CustomFieldRepository {
  private readonly store: RevisionStore<StoredCustomField>;

  constructor(@InjectModel(StoredCustomField.name) fields: Model<StoredCustomField>) {
    this.store = new RevisionStore(fields, 'fieldId');
  }

  findOne(clientId: string, fieldId: number): Promise<StoredCustomField | null> {
    return this.store.findOne(clientId, fieldId);
  }

  async findByNameKey(clientId: string, nameKey: string): Promise<StoredCustomField | null> {
    const [found] = await this.store.findByNameKeys(clientId, [nameKey]);
    return found ?? null;
  }

  list(clientId: string): Promise<StoredCustomField[]> {
    return this.store.list(clientId);
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.store.findByNameKeys(clientId, nameKeys)).map((field) => field.Name);
  }

  /** Stores the first revision of each new definition (their ids are claimed, so none exists). */
  async insertAll(fields: StoredCustomField[]): Promise<void> {
    for (const field of fields) {
      if (!(await this.store.insertRevision(field))) {
        throw new Error(`Custom field revision ${field._id} exists already`);
      }
    }
  }

  /**
   * Stores the next revision of a definition; false when another writer stored that
   * revision first (the caller re-reads and redoes its change).
   */
  async saveRevision(field: StoredCustomField): Promise<boolean> {
    if (!(await this.store.insertRevision(field))) return false;
    await this.store.supersedeBefore(field.clientId, field.fieldId, field.revision);
    return true;
  }
}
