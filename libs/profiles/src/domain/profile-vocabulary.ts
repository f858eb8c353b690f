import type { CurrentNames } from './current-names';

/** The kinds of type entries a profile names. */
export type ProfileTypeKind =
  | 'CustomerTypes'
  | 'AddressTypes'
  | 'AlternateIdTypes'
  | 'GroupTypes'
  | 'EmailTypes'
  | 'PhoneTypes';

/**
 * What a profile write needs to know of its client's configuration (the port; the
 * configuration module's snapshot implements it). Names compare case-insensitively.
 */
export interface ProfileVocabulary extends PreferenceVocabulary, CurrentNames {
  type(kind: ProfileTypeKind, name: string): { IsActive: boolean } | undefined;
  consentType(name: string):
    | {
        IsActive: boolean;
        Versions: { ConsentVersion: string; IsActive: boolean; ExpirationInDays?: number }[];
        /** The most recent version (what a new consent without a version gets). */
        LatestVersion?: string | null;
        /** A grant on an email address waits for the person's confirmation (double opt-in). */
        RequiresConfirmation?: boolean;
      }
    | undefined;
  customField(name: string): { IsActive: boolean; UpdateRuleId?: number } | undefined;
  /** Type, limits, picklist and update rule of a custom field value; a message or null. */
  checkCustomFieldValue(
    name: string,
    newValue: string | null,
    currentValue: string | null,
  ): string | null;
  /** Names of the active custom fields every profile must have. */
  requiredCustomFields(): string[];
  /**
   * Names (former ones included) of the consent types whose attributes include every
   * given Key/Value pair.
   */
  consentTypesWithAttributes(pairs: { Key: string; Value: string }[]): string[];
}

/** What the preference rules know of a filter (and its program). */
export interface PreferenceFilter {
  ProgramId: number;
  FilterId: number;
  /** Canonical channel: Phone, Text/SMS, Email, Mail or Solicit. */
  ChannelId: string;
  IsActive: boolean;
  /** Every frequency id the filter offers, in any locale. */
  FrequencyIds: string[];
  OptInCustomerExpirationDays?: number;
  OptOutCustomerExpirationDays?: number;
  OptInNonCustomerExpirationDays?: number;
  OptOutNonCustomerExpirationDays?: number;
  /** TypeNames of the consent types a preference on the filter must be associated with. */
  RequiredConsentTypes: string[];
  /** Keys (the filter's attribute IDs) a preference on the filter must carry with a value. */
  RequiredAttributes: string[];
  /** IDs of every attribute the filter defines: a preference may carry only these. */
  AttributeIds?: string[];
  /** The PreferenceType (1 opt-in, 2 opt-out) a preference written without one gets. */
  DefaultPreferenceValue?: number;
  /**
   * An opt-in on this Email filter waits for the person's confirmation (double opt-in): set
   * on the filter or on its program.
   */
  RequiresConfirmation?: boolean;
}

/** The part of the configuration port the preference rules use. */
export interface PreferenceVocabulary {
  program(programId: number): { IsActive: boolean } | undefined;
  /** Filter ids are unique per client: the filter of that id, whatever its program. */
  filter(filterId: number): PreferenceFilter | undefined;
  /** The canonical channel of a ChannelId ("sms" gives "Text/SMS"), or undefined. */
  channel(value: string): string | undefined;
}
