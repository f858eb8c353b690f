import { Injectable } from '@nestjs/common';
import { ConfigBookkeeping } from '../common/config-bookkeeping.repository';
import type { ConfirmationSettings } from '../confirmation-settings/domain/confirmation-template';
import { toConfirmationSettings } from '../confirmation-settings/mapping/confirmation-settings.mapper';
import { ConfirmationSettingsRepository } from '../confirmation-settings/repositories/confirmation-settings.repository';
import { ConsentTypeCatalog } from '../consent-types/services/consent-type-catalog.service';
import { CustomFieldCatalog } from '../custom-fields/services/custom-field-catalog.service';
import { ProgramRepository } from '../programs/repositories/program.repository';
import { TypeCatalog } from '../types/services/type-catalog.service';
import { ClientVocabulary } from './client-vocabulary';
import { type ClientPresentation, toClientPresentation } from './client-presentation';

const MAX_CACHED_CLIENTS = 1000;

/**
 * Every profile write reads its client's configuration, so it is cached per client. The
 * cache is checked against the client's configuration stamp on every use (its Redis copy,
 * else one `_id` read; see ConfigBookkeeping.currentStamp): any process that changes
 * configuration writes a new stamp, so api and worker processes never act on a stale
 * vocabulary.
 * The stamp is read before the configuration, so a change that lands in between only
 * causes one more reload.
 */
@Injectable()
export class ConfigurationReader {
  private readonly cache = new Map<string, ClientVocabulary>();
  private readonly presentations = new Map<string, ClientPresentation>();
  private readonly confirmations = new Map<
    string,
    { stamp: string; settings: ConfirmationSettings }
  >();

  constructor(
    private readonly bookkeeping: ConfigBookkeeping,
    private readonly types: TypeCatalog,
    private readonly consentTypes: ConsentTypeCatalog,
    private readonly customFields: CustomFieldCatalog,
    private readonly programs: ProgramRepository,
    private readonly confirmationSettings: ConfirmationSettingsRepository,
  ) {}

  /**
   * The client's vocabulary under its current stamp. `options.reuseStamp`: a read path's
   * (decisions, searches), whose stamp may be the one this process read within
   * READ_STAMP_REUSE_MS while no change was announced (ConfigBookkeeping.currentStamp).
   */
  async vocabulary(
    clientId: string,
    options?: { reuseStamp?: boolean },
  ): Promise<ClientVocabulary> {
    const stamp = await this.bookkeeping.currentStamp(clientId, options?.reuseStamp);
    const cached = this.cache.get(clientId);
    if (cached?.stamp === stamp) return cached;

    // Programs and filters change the stamp too (every program command touches it).
    // One query per collection: each decodes the whole collection on the embedded engine.
    const [types, consentTypes, customFields, programs] = await Promise.all([
      this.types.listEveryKind(clientId),
      this.consentTypes.list(clientId),
      this.customFields.list(clientId),
      this.programs.listAll(clientId),
    ]);
    const vocabulary = new ClientVocabulary(stamp, types, consentTypes, customFields, programs);
    this.cache.delete(clientId);
    this.cache.set(clientId, vocabulary);
    if (this.cache.size > MAX_CACHED_CLIENTS) {
      // Maps keep insertion order: the first key is the least recently loaded client.
      this.cache.delete(this.cache.keys().next().value as string);
    }
    return vocabulary;
  }

  /**
   * The client's programs and consent types with their display texts (localised names,
   * frequencies, consent language): what a page shown to a person needs. Cached per client
   * under the same stamp check as the vocabulary.
   */
  async presentation(clientId: string): Promise<ClientPresentation> {
    const stamp = await this.bookkeeping.currentStamp(clientId);
    const cached = this.presentations.get(clientId);
    if (cached?.stamp === stamp) return cached;
    const [programs, consentTypes] = await Promise.all([
      this.programs.listAll(clientId),
      this.consentTypes.listWithTexts(clientId),
    ]);
    const presentation = toClientPresentation(stamp, programs, consentTypes);
    this.presentations.delete(clientId);
    this.presentations.set(clientId, presentation);
    if (this.presentations.size > MAX_CACHED_CLIENTS) {
      this.presentations.delete(this.presentations.keys().next().value as string);
    }
    return presentation;
  }

  /**
   * The client's double opt-in settings (defaults where none are stored), cached per client
   * under the same stamp check as the vocabulary.
   */
  async confirmation(clientId: string): Promise<ConfirmationSettings> {
    const stamp = await this.bookkeeping.currentStamp(clientId);
    const cached = this.confirmations.get(clientId);
    if (cached?.stamp === stamp) return cached.settings;
    const settings = toConfirmationSettings(await this.confirmationSettings.find(clientId));
    this.confirmations.delete(clientId);
    this.confirmations.set(clientId, { stamp, settings });
    if (this.confirmations.size > MAX_CACHED_CLIENTS) {
      this.confirmations.delete(this.confirmations.keys().next().value as string);
    }
    return settings;
  }
}
