import { Injectable } from '@nestjs/common';
import {
  isDuplicateKeyError,
  acrossTenants,
  type TenantKey,
  TenantScopedModel,
  InjectTenantScoped,
} from '@app/shared';
import {
  ConfigEvent,
  CONSENT_TYPE_RENAMED,
  CONSENT_VERSION_PUBLISHED,
} from '../domain/config-event.schema';
import { consentTypeRenamedEventId, consentVersionEventId } from '../../keys';

/**
 * The `config_events` outbox. The api records events after saving the change they
 * describe; the worker reads `pending` ones and marks each processed. Events of every
 * client are read together (the worker serves all tenants); each carries its clientId.
 */
@Injectable()
export class ConfigEventOutbox {
  constructor(
    @InjectTenantScoped(ConfigEvent) private readonly events: TenantScopedModel<ConfigEvent>,
  ) {}

  /** Records that versions were published; an event recorded before is left as it is. */
  async recordConsentVersions(
    clientId: string,
    typeId: number,
    typeName: string,
    versions: string[],
    at = new Date(),
  ): Promise<void> {
    for (const version of versions) {
      try {
        await this.events.create({
          _id: consentVersionEventId(clientId, typeId, version),
          clientId,
          type: CONSENT_VERSION_PUBLISHED,
          consentType: typeName,
          typeId,
          consentVersion: version,
          at,
          processedAt: null,
        });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
    }
  }

  /**
   * Records that the consent type's revision `revision` renames it from `formerName`, so
   * the worker gives every profile holding a consent under that name the current one.
   */
  async recordConsentTypeRename(
    clientId: string,
    typeId: number,
    revision: number,
    formerName: string,
    at = new Date(),
  ): Promise<void> {
    try {
      await this.events.create({
        _id: consentTypeRenamedEventId(clientId, typeId, revision),
        clientId,
        type: CONSENT_TYPE_RENAMED,
        consentType: formerName,
        typeId,
        at,
        processedAt: null,
      });
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  /**
   * Unprocessed events of every tenant, oldest first (the outbox job's deliberate
   * cross-tenant read).
   */
  pendingAcrossTenants(limit: number): Promise<ConfigEvent[]> {
    return this.events
      .find(acrossTenants({ processedAt: null }))
      .sort({ at: 1, _id: 1 })
      .limit(limit)
      .lean<ConfigEvent[]>()
      .exec();
  }

  /** Records how far the worker got with an event (see ConfigEvent.cursor). */
  async saveCursor(id: TenantKey, cursor: number): Promise<void> {
    await this.events.updateOne({ _id: id, processedAt: null }, { $set: { cursor } });
  }

  /** One event by id (tests and tools read its cursor and processedAt). */
  findById(id: TenantKey): Promise<ConfigEvent | null> {
    return this.events.findById(id).lean<ConfigEvent>().exec();
  }

  async markProcessed(id: TenantKey): Promise<void> {
    await this.events.updateOne(
      { _id: id, processedAt: null },
      { $set: { processedAt: new Date() } },
    );
  }
}
