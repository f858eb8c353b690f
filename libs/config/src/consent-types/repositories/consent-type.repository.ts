import { Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { TenantScopedModel } from '@app/shared';
import type { Model } from 'mongoose';
import { NamedRevisionStore } from '../../common/revision-store';
import { CONSENT_TYPE_KIND, namesOf, StoredConsentType } from '../domain/consent-type.schema';
import { consentTypeKey } from '../../keys';

/** The `config_consent_types` revisions; every method is scoped by client id. */
@Injectable()
export class ConsentTypeRepository extends NamedRevisionStore<StoredConsentType> {
  private readonly types: TenantScopedModel<StoredConsentType>;

  constructor(@InjectModel(StoredConsentType.name) types: Model<StoredConsentType>) {
    super(types, 'typeId', CONSENT_TYPE_KIND, 'Consent type', (type) => type.TypeName);
    this.types = new TenantScopedModel(types);
  }

  /**
   * Every stored revision of the type, newest first (each read by `_id`); [] when the type
   * does not exist. Revisions are never deleted: they are the type's history.
   */
  async revisions(clientId: string, typeId: number): Promise<StoredConsentType[]> {
    const latest = await this.findOne(clientId, typeId);
    if (!latest) return [];
    const older = await Promise.all(
      Array.from({ length: latest.revision }, (_, n) =>
        this.types
          .findById(consentTypeKey(clientId, typeId, latest.revision - 1 - n))
          .lean<StoredConsentType>()
          .exec(),
      ),
    );
    return [latest, ...older.filter((revision): revision is StoredConsentType => !!revision)];
  }

  /** A type holds its former names too (see StoredConsentType.FormerNames). */
  override async namesHeldBy(clientId: string, entryId: number): Promise<string[] | null> {
    const type = await this.findOne(clientId, entryId);
    return type && namesOf(type);
  }
}
