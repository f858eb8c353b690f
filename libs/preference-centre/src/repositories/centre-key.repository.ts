import { Injectable } from '@nestjs/common';
import { isDuplicateKeyError, TenantScopedModel, InjectTenantScoped } from '@app/shared';
import { PreferenceCentreKeyDoc } from '../domain/centre-key.schema';
import { centreKeyId } from '../keys';

/** The `preference_centre_keys` collection, by `_id` only. */
@Injectable()
export class CentreKeyRepository {
  constructor(
    @InjectTenantScoped(PreferenceCentreKeyDoc)
    private readonly keys: TenantScopedModel<PreferenceCentreKeyDoc>,
  ) {}

  /** The client's key (base64), or null when no link was ever made for it. */
  async find(clientId: string): Promise<string | null> {
    const doc = await this.keys
      .findById(centreKeyId(clientId))
      .lean<PreferenceCentreKeyDoc>()
      .exec();
    return doc?.key ?? null;
  }

  /** Stores `key` unless the client has one, and returns the one that is stored. */
  async insertIfAbsent(clientId: string, key: string, at: Date): Promise<string> {
    try {
      await this.keys.create({ _id: centreKeyId(clientId), clientId, key, createdAt: at });
      return key;
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const stored = await this.find(clientId);
    if (!stored) throw new Error('the preference centre key vanished after a duplicate insert');
    return stored;
  }
}
