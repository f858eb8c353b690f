import type { CurrentNames } from './current-names';
import type { PreferenceVocabulary } from './preference.rules';

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
      }
    | undefined;
  customField(name: string): { IsActive: boolean } | undefined;
  /** Type, limits, picklist and update rule of a custom field value; a message or null. */
  checkCustomFieldValue(
    name: string,
    newValue: string | null,
    currentValue: string | null,
  ): string | null;
  /** Names of the active custom fields every profile must have. */
  requiredCustomFields(): string[];
}
