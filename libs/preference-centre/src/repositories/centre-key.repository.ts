import { Injectable } from '@nestjs/common';
import { insertFirstWins, TenantScopedModel, InjectTenantScoped } from '@app/shared';
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
  insertIfAbsent(clientId: string, key: string, at: Date): Promise<string> {
    return insertFirstWins(
      key,
      () => this.keys.create({ _id: centreKeyId(clientId), clientId, key, createdAt: at }),
      () => this.find(clientId),
      'the preference centre key',
    );
  }
}
