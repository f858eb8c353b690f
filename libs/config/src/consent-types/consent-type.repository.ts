import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { RevisionStore } from '../common/revision-store';
import { StoredConsentType } from './consent-type.schema';

/** The `config_consent_types` revisions; every method is scoped by client id. */
@Injectable()
export class ConsentTypeRepository extends RevisionStore<StoredConsentType> {
  constructor(@InjectModel(StoredConsentType.name) types: Model<StoredConsentType>) {
    super(types, 'typeId');
  }

  /** The stored names among `nameKeys` (normalised names). */
  async existingNames(clientId: string, nameKeys: string[]): Promise<string[]> {
    return (await this.findByNameKeys(clientId, nameKeys)).map((type) => type.TypeName);
  }
}
