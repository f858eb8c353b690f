import type { ConsentTypeSummary } from '../../common/cross-area';
import { toLocalizedDtos } from '../../common/locale-selection';
import { orNull, toEditedDto } from '../../common/entry-request';
import { latestVersion } from '../domain/consent-type.rules';
import type { StoredConsentType, StoredConsentVersion } from '../domain/consent-type.schema';
import type {
  ConsentTypeDto,
  ConsentTypeRevisionDto,
  ConsentVersionDto,
} from '../dto/consent-type.dto';

export interface ConsentTypeView {
  /** Only the localised fields selected for this locale (the type's and each version's). */
  locale?: string;
  /** Only the most recent version (see `latestVersion`). */
  latestVersionOnly?: boolean;
}

/**
 * Stored consent type → wire. Absent optional fields are null (ChannelId null: a
 * profile-only type) so a PATCH can replace them.
 */
export function toConsentTypeDto(
  type: StoredConsentType,
  view: ConsentTypeView = {},
): ConsentTypeDto {
  const { locale } = view;
  let versions = type.Versions;
  if (view.latestVersionOnly) {
    const latest = latestVersion(versions);
    versions = latest ? [latest] : [];
  }
  return {
    TypeId: type.typeId,
    TypeName: type.TypeName,
    LocalizedFields: toLocalizedDtos(type.LocalizedFields, locale),
    IsActive: type.IsActive !== false,
    IsDefault: type.IsDefault === true,
    ChannelId: orNull(type.ChannelId),
    RequiresConfirmation: type.RequiresConfirmation === true,
    Attributes: type.Attributes.map((attribute) => ({
      Key: attribute.Key,
      Value: orNull(attribute.Value) as string,
    })),
    Versions: versions.map((version) => toVersionDto(version, locale)),
    Edited: toEditedDto(type.Edited),
  };
}

function toVersionDto(version: StoredConsentVersion, locale?: string): ConsentVersionDto {
  return {
    ConsentVersion: version.ConsentVersion,
    LocalizedFields: toLocalizedDtos(version.LocalizedFields, locale, (field) => ({
      ConsentLanguage: orNull(field.ConsentLanguage) as string,
    })),
    ExpirationInDays: orNull(version.ExpirationInDays) as number,
    IsActive: version.IsActive !== false,
    IsAssociatedWithProfiles: version.IsAssociatedWithProfiles === true,
    Edited: toEditedDto(version.Edited),
    PublishedDate: version.PublishedDate,
  };
}

/** Whether a wire consent type has localised fields (its own or a version's). */
export function hasLocalizedFields(type: ConsentTypeDto): boolean {
  return (
    (type.LocalizedFields ?? []).length > 0 ||
    (type.Versions ?? []).some((version) => version.LocalizedFields.length > 0)
  );
}

/**
 * What other areas and the profile validation may know of a consent type: the cross-area
 * ConsentTypeSummary plus each version's PublishedDate and the most recent version.
 */
export interface ConsentTypeDetails extends ConsentTypeSummary {
  IsDefault: boolean;
  /** A grant on an email address waits for the person's confirmation (double opt-in). */
  RequiresConfirmation: boolean;
  Versions: {
    ConsentVersion: string;
    IsActive: boolean;
    ExpirationInDays?: number;
    PublishedDate: string;
  }[];
  /** ConsentVersion of the most recent version (the last published), or null. */
  LatestVersion: string | null;
  /** The type's key-value attributes (what the consent-attribute profile search matches). */
  Attributes: { Key: string; Value?: string }[];
  /** Names the type had before TypeName (see StoredConsentType.FormerNames). */
  FormerNames: string[];
}

export function toConsentTypeDetails(type: StoredConsentType): ConsentTypeDetails {
  return {
    TypeId: type.typeId,
    TypeName: type.TypeName,
    IsActive: type.IsActive !== false,
    IsDefault: type.IsDefault === true,
    ...(type.ChannelId ? { ChannelId: type.ChannelId } : {}),
    RequiresConfirmation: type.RequiresConfirmation === true,
    Versions: type.Versions.map((version) => ({
      ConsentVersion: version.ConsentVersion,
      IsActive: version.IsActive !== false,
      ...(version.ExpirationInDays != null ? { ExpirationInDays: version.ExpirationInDays } : {}),
      PublishedDate: version.PublishedDate,
    })),
    LatestVersion: latestVersion(type.Versions)?.ConsentVersion ?? null,
    FormerNames: type.FormerNames ?? [],
    Attributes: (type.Attributes ?? []).map((attribute) => ({
      Key: attribute.Key,
      ...(attribute.Value != null ? { Value: attribute.Value } : {}),
    })),
  };
}

/** One stored revision → its history entry. */
export function toConsentTypeRevisionDto(type: StoredConsentType): ConsentTypeRevisionDto {
  return {
    Revision: type.revision,
    TypeName: type.TypeName,
    FormerNames: type.FormerNames ?? [],
    IsActive: type.IsActive !== false,
    ChannelId: orNull(type.ChannelId),
    Versions: type.Versions.map((version) => version.ConsentVersion),
    Edited: toEditedDto(type.Edited),
  };
}
