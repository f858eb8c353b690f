import { textKey } from '@app/shared';
import { latestVersion } from '../consent-types/domain/consent-type.rules';
import type { StoredConsentType } from '../consent-types/domain/consent-type.schema';
import type { StoredProgram } from '../programs/domain/program.schema';
import { overlay } from '../programs/domain/custom-property-matching';

/**
 * The custom property that marks a program (or one filter) as a sale or sharing of personal
 * information, which a Global Privacy Control signal opts the person out of
 * (docs/preference-centre.md, "Global Privacy Control"): `SaleOrShare` with the value `true`
 * (trimmed, any letter case). A filter has its program's properties unless it has its own
 * (`false` on a filter leaves it out). Unset everywhere (the default): nothing is marked.
 */
export const SALE_OR_SHARE_PROPERTY = 'SaleOrShare';

/** Whether a filter of a program is marked SaleOrShare (its own property, else the program's). */
export function isSaleOrShare(
  program: { CustomProperties?: { Key: string; Value?: string | null }[] },
  filter: { CustomProperties?: { Key: string; Value?: string | null }[] },
): boolean {
  const view = overlay(
    overlay(new Map(), program.CustomProperties ?? []),
    filter.CustomProperties ?? [],
  );
  return view.get(textKey(SALE_OR_SHARE_PROPERTY)) === 'true';
}

/** A locale's display tags ({Key, Value}) of a program or filter. */
export interface PresentationLocale {
  ID: string;
  DisplayTags: { Key: string; Value?: string }[];
}

export interface PresentationFrequency {
  ID: string;
  DisplayName?: string;
  Description?: string;
  IsDefault?: boolean;
  DisplayOrder?: number;
}

export interface PresentationFilter {
  Id: number;
  Name: string;
  Description?: string;
  /** Canonical channel: Email, Phone, Text/SMS, Mail or Solicit. */
  ChannelId: string;
  IsActive: boolean;
  Locales: PresentationLocale[];
  FrequencyLocales: { ID: string; Frequencies: PresentationFrequency[] }[];
  /** Consent types (as configured) an opt-in of the filter needs. */
  RequiredConsentTypes: string[];
  /** The attributes (their IDs) every preference of the filter must carry with a value. */
  RequiredAttributes: string[];
  /** Marked as a sale or sharing of personal information (SALE_OR_SHARE_PROPERTY). */
  SaleOrShare: boolean;
}

export interface PresentationProgram {
  Id: number;
  Name: string;
  Description?: string;
  ProgramType: string;
  IsActive: boolean;
  Locales: PresentationLocale[];
  Filters: PresentationFilter[];
}

export interface PresentationConsentType {
  TypeId: number;
  TypeName: string;
  FormerNames: string[];
  IsActive: boolean;
  ChannelId?: string;
  LocalizedFields: { Locale: string; Name: string; Description?: string }[];
  Versions: {
    ConsentVersion: string;
    IsActive: boolean;
    PublishedDate: string;
    LocalizedFields: {
      Locale: string;
      Name: string;
      Description?: string;
      ConsentLanguage?: string;
    }[];
  }[];
  /** The most recently published version, or null. */
  LatestVersion: string | null;
}

/**
 * What a page shown to a person needs of a client's configuration (the preference centre):
 * programs and filters with their names, localised display tags and frequencies, consent
 * types with their localised names and the text of each version. Read-only snapshot under
 * the configuration stamp it was read at.
 */
export interface ClientPresentation {
  stamp: string;
  programs: readonly PresentationProgram[];
  consentTypes: readonly PresentationConsentType[];
}

export function toClientPresentation(
  stamp: string,
  programs: StoredProgram[],
  consentTypes: StoredConsentType[],
): ClientPresentation {
  return {
    stamp,
    programs: programs.map((program) => ({
      Id: program.programId,
      Name: program.Name,
      ...(program.Description ? { Description: program.Description } : {}),
      ProgramType: program.ProgramType,
      IsActive: program.IsActive !== false,
      Locales: locales(program.Locales),
      Filters: program.Filters.map((filter) => ({
        Id: filter.ID,
        Name: filter.Name,
        ...(filter.Description ? { Description: filter.Description } : {}),
        ChannelId: filter.ChannelID,
        IsActive: filter.IsActive !== false,
        Locales: locales(filter.Locales),
        FrequencyLocales: (filter.FrequencyLocales ?? []).map((locale) => ({
          ID: locale.ID,
          Frequencies: (locale.Frequencies ?? []).map((frequency) => ({
            ID: frequency.ID,
            ...(frequency.DisplayName ? { DisplayName: frequency.DisplayName } : {}),
            ...(frequency.Description ? { Description: frequency.Description } : {}),
            ...(frequency.IsDefault !== undefined ? { IsDefault: frequency.IsDefault } : {}),
            ...(frequency.DisplayOrder !== undefined
              ? { DisplayOrder: frequency.DisplayOrder }
              : {}),
          })),
        })),
        RequiredConsentTypes: (filter.RequiredPreferenceConsents ?? []).map((c) => c.TypeName),
        RequiredAttributes: (filter.PreferenceAttributes ?? [])
          .filter((attribute) => attribute.IsRequired === true)
          .map((attribute) => attribute.ID),
        SaleOrShare: isSaleOrShare(program, filter),
      })),
    })),
    consentTypes: consentTypes.map((type) => ({
      TypeId: type.typeId,
      TypeName: type.TypeName,
      FormerNames: type.FormerNames ?? [],
      IsActive: type.IsActive !== false,
      ...(type.ChannelId ? { ChannelId: type.ChannelId } : {}),
      LocalizedFields: (type.LocalizedFields ?? []).map((field) => ({
        Locale: field.Locale,
        Name: field.Name,
        ...(field.Description ? { Description: field.Description } : {}),
      })),
      Versions: (type.Versions ?? []).map((version) => ({
        ConsentVersion: version.ConsentVersion,
        IsActive: version.IsActive !== false,
        PublishedDate: version.PublishedDate,
        LocalizedFields: (version.LocalizedFields ?? []).map((field) => ({
          Locale: field.Locale,
          Name: field.Name,
          ...(field.Description ? { Description: field.Description } : {}),
          ...(field.ConsentLanguage ? { ConsentLanguage: field.ConsentLanguage } : {}),
        })),
      })),
      LatestVersion: latestVersion(type.Versions ?? [])?.ConsentVersion ?? null,
    })),
  };
}

function locales(list: StoredProgram['Locales'] | undefined): PresentationLocale[] {
  return (list ?? []).map((locale) => ({
    ID: locale.ID,
    DisplayTags: (locale.DisplayTags ?? []).map((tag) => ({
      Key: tag.Key,
      ...(tag.Value != null ? { Value: tag.Value } : {}),
    })),
  }));
}
