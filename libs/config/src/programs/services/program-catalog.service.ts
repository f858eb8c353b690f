import { Injectable } from '@nestjs/common';
import { ConfigBookkeeping } from '../../common/config-bookkeeping.repository';
import type { StoredProgram } from '../domain/program.schema';
import { canonicalChannel, type Channel } from '../domain/program-vocabulary';
import { ProgramRepository } from '../repositories/program.repository';

/** What the preference rules and the profile validation know of a filter and its program. */
export interface CatalogFilter {
  ProgramId: number;
  ProgramName: string;
  ProgramType: string;
  ProgramIsActive: boolean;
  FilterId: number;
  FilterName: string;
  /** Canonical channel: Phone, Text/SMS, Email, Mail or Solicit. */
  ChannelId: Channel;
  FilterIsActive: boolean;
  DefaultLocaleId?: string;
  DefaultPreferenceValue?: number;
  OptInCustomerExpirationDays?: number;
  OptOutCustomerExpirationDays?: number;
  OptInNonCustomerExpirationDays?: number;
  OptOutNonCustomerExpirationDays?: number;
  /** The filter's frequencies per locale. */
  FrequencyLocales: {
    ID: string;
    Frequencies: { ID: string; DisplayName?: string; IsDefault?: boolean; DisplayOrder?: number }[];
  }[];
  /** Every frequency id the filter offers, in any locale (distinct, as configured). */
  FrequencyIds: string[];
  RequiredPreferenceConsents: { TypeName: string; DisplayOrder?: number }[];
  PreferenceAttributes: { ID: string; DisplayOrder?: number; IsRequired?: boolean }[];
}

const MAX_CACHED_CLIENTS = 1000;

/** A decimal id as preferences send it ("7"), or a number; anything else names nothing. */
function parseId(value: string | number | null | undefined): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  if (typeof value !== 'string' || !/^\s*\d{1,10}\s*$/.test(value)) return undefined;
  return Number(value);
}

/**
 * Read access to a client's programs and filters for other areas (exported by
 * ProgramsModule). Cached per process and per client under the client's configuration
 * stamp, so any configuration change in any process is seen on the next call.
 */
@Injectable()
export class ProgramCatalog {
  private readonly cache = new Map<string, { stamp: string; programs: StoredProgram[] }>();

  constructor(
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  /**
   * The filter `filterId` of program `programId`, or null when the client has no such
   * program, the filter is not one of its filters, or `channelId` (when given) is not the
   * filter's channel ("Text" and "SMS" both name Text/SMS; any letter case). Ids are the
   * decimal strings profile preferences carry ("3") or numbers. Inactive programs and
   * filters are returned, with their flags.
   */
  async findFilter(
    clientId: string,
    programId: string | number,
    channelId: string | null | undefined,
    filterId: string | number,
  ): Promise<CatalogFilter | null> {
    const programNumber = parseId(programId);
    const filterNumber = parseId(filterId);
    if (programNumber === undefined || filterNumber === undefined) return null;
    const program = (await this.load(clientId)).find((p) => p.programId === programNumber);
    const filter = program?.Filters.find((f) => f.ID === filterNumber);
    if (!program || !filter) return null;
    if (channelId !== undefined && channelId !== null && channelId.trim() !== '') {
      if (canonicalChannel(channelId) !== filter.ChannelID) return null;
    }
    const frequencyIds = [
      ...new Set(filter.FrequencyLocales.flatMap((l) => l.Frequencies.map((f) => f.ID))),
    ];
    return structuredClone({
      ProgramId: program.programId,
      ProgramName: program.Name,
      ProgramType: program.ProgramType,
      ProgramIsActive: program.IsActive !== false,
      FilterId: filter.ID,
      FilterName: filter.Name,
      ChannelId: filter.ChannelID as Channel,
      FilterIsActive: filter.IsActive !== false,
      DefaultLocaleId: filter.DefaultLocaleID,
      DefaultPreferenceValue: filter.DefaultPreferenceValue,
      OptInCustomerExpirationDays: filter.OptInCustomerExpirationDays,
      OptOutCustomerExpirationDays: filter.OptOutCustomerExpirationDays,
      OptInNonCustomerExpirationDays: filter.OptInNonCustomerExpirationDays,
      OptOutNonCustomerExpirationDays: filter.OptOutNonCustomerExpirationDays,
      FrequencyLocales: filter.FrequencyLocales.map((locale) => ({
        ID: locale.ID,
        Frequencies: locale.Frequencies.map((frequency) => ({
          ID: frequency.ID,
          DisplayName: frequency.DisplayName,
          IsDefault: frequency.IsDefault,
          DisplayOrder: frequency.DisplayOrder,
        })),
      })),
      FrequencyIds: frequencyIds,
      RequiredPreferenceConsents: filter.RequiredPreferenceConsents.map((consent) => ({
        TypeName: consent.TypeName,
        DisplayOrder: consent.DisplayOrder,
      })),
      PreferenceAttributes: filter.PreferenceAttributes.map((attribute) => ({
        ID: attribute.ID,
        DisplayOrder: attribute.DisplayOrder,
        IsRequired: attribute.IsRequired,
      })),
    });
  }

  /**
   * The account's Do Not Contact filter for a channel: the first active filter of that
   * channel in the active DNC programs (program id order), or null when none is configured.
   * Do-not-contact lists mark profiles with a preference on it.
   */
  async doNotContactFilter(clientId: string, channel: Channel): Promise<CatalogFilter | null> {
    for (const program of await this.load(clientId)) {
      if (program.ProgramType !== 'Do Not Contact (DNC)' || program.IsActive === false) continue;
      const filter = program.Filters.find((f) => f.ChannelID === channel && f.IsActive !== false);
      if (filter) return this.findFilter(clientId, program.programId, null, filter.ID);
    }
    return null;
  }

  private async load(clientId: string): Promise<StoredProgram[]> {
    // The stamp is read before the data: a change stored meanwhile leaves a newer stamp,
    // so data cached under the older one is reloaded on the next call.
    const stamp = await this.bookkeeping.currentStamp(clientId);
    const cached = this.cache.get(clientId);
    if (cached?.stamp === stamp) return cached.programs;
    const programs = await this.programs.listAll(clientId);
    if (this.cache.size >= MAX_CACHED_CLIENTS) this.cache.clear();
    this.cache.set(clientId, { stamp, programs });
    return programs;
  }
}
