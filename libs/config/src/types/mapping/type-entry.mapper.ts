import { toEditedDto } from '../../common/entry-request';
import type { LocalizedFieldDto } from '../../common/localized-field.dto';
import type { TypeEntryDto } from '../dto/type-entry.dto';
import type { StoredLocalizedField, StoredTypeEntry } from '../domain/type-entry.schema';

/** What other modules may know of an entry (TypeCatalog). */
export interface TypeEntry {
  TypeId: number;
  TypeName: string;
  LocalizedFields: { Locale: string; Name: string; Description?: string }[];
  IsDefault: boolean;
  IsActive: boolean;
}

/**
 * Stored entry → the wire shape. Lists every field it returns; `defaultTypeId` is the
 * kind's default (config_types_defaults), which decides IsDefault.
 */
export function toTypeEntryDto(entry: StoredTypeEntry, defaultTypeId: number | null): TypeEntryDto {
  return { ...toTypeEntry(entry, defaultTypeId), Edited: toEditedDto(entry.Edited) };
}

/** Stored entry → the read model of TypeCatalog (no Edited). */
export function toTypeEntry(entry: StoredTypeEntry, defaultTypeId: number | null): TypeEntry {
  return {
    TypeId: entry.typeId,
    TypeName: entry.TypeName,
    LocalizedFields: (entry.LocalizedFields ?? []).map(toLocalizedField),
    IsDefault: entry.typeId === defaultTypeId,
    IsActive: entry.IsActive !== false,
  };
}

function toLocalizedField(field: StoredLocalizedField): LocalizedFieldDto {
  return {
    Locale: field.Locale,
    Name: field.Name,
    ...(field.Description !== undefined && field.Description !== null
      ? { Description: field.Description }
      : {}),
  };
}
