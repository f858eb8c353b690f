import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../picklists/revision-store';
import { StoredConsentType } from './consent-type.schema';

/** The `config_consent_types` revisions; every method is scoped by client id. */
@Injectable()
export class ConsentTypeRepository {
  private readonly store: RevisionStore<StoredConsentType>;

  constructor(@InjectModel(StoredConsentType.name) types: Model<StoredConsentType>) {
    this.store = new RevisionStore(types, 'typeId');
  }

  findOne(clientId: string, typeId: number): Promise<StoredConsentType | null> {
    return this.store.findOne(clientId, typeId);
  }

  async findByNameKey(clientId: string, nameKey: string): Promise<StoredConsentType | null> {
    const [found] = await this.store.findByNameKeys(clientId, [nameKey]);
    return found ?? null;
  }

  list(clientId: string): Promise<StoredConsentType[]> {
    return this.store.list(clientId);
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.store.findByNameKeys(clientId, nameKeys)).map((type) => type.TypeName);
  }

  /** Stores the first revision of each new type (their ids are claimed, so none exists). */
  async insertAll(types: StoredConsentType[]): Promise<void> {
    for (const type of types) {
      if (!(await this.store.insertRevision(type))) {
        throw new Error(`Consent type revision ${type._id} exists already`);
      }
    }
  }

  /**
   * Stores the next revision of a type; false when another writer stored that revision
   * first (the caller re-reads and redoes its change).
   */
  async saveRevision(type: StoredConsentType): Promise<boolean> {
    if (!(await this.store.insertRevision(type))) return false;
    await this.store.supersedeBefore(type.clientId, type.typeId, type.revision);
    return true;
  }
}
