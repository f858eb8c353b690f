import { Injectable } from '@nestjs/common';
import { textKey } from '@app/shared';
import { type ConsentTypeDetails, toConsentTypeDetails } from '../mapping/consent-type.mapper';
import { ConsentTypeRepository } from '../repositories/consent-type.repository';
import type { StoredConsentType } from '../domain/consent-type.schema';

/** Read access to a client's consent types, for other areas and the profile validation. */
@Injectable()
export class ConsentTypeCatalog {
  constructor(private readonly types: ConsentTypeRepository) {}

  /**
   * The type named `name` (trimmed, spaces folded, case-insensitive) now, else the type
   * that had that name before a rename, or null.
   */
  async findByName(clientId: string, name: string): Promise<ConsentTypeDetails | null> {
    const key = textKey(name);
    const type = await this.types.findByNameKey(clientId, key);
    if (type) return toConsentTypeDetails(type);
    const renamed = (await this.types.list(clientId)).find((entry) =>
      (entry.FormerNames ?? []).some((former) => textKey(former) === key),
    );
    return renamed ? toConsentTypeDetails(renamed) : null;
  }

  async findById(clientId: string, typeId: number): Promise<ConsentTypeDetails | null> {
    const type = await this.types.findOne(clientId, typeId);
    return type ? toConsentTypeDetails(type) : null;
  }

  /**
   * Every consent type of the client as stored (localised names, version texts), in id
   * order: what a page shown to a person needs (the preference centre).
   */
  async listWithTexts(clientId: string): Promise<StoredConsentType[]> {
    return this.types.list(clientId);
  }

  /** Every consent type of the client (active or not), in id order. */
  async list(clientId: string): Promise<ConsentTypeDetails[]> {
    return (await this.types.list(clientId)).map(toConsentTypeDetails);
  }
}
