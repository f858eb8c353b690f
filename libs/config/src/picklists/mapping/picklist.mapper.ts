import { toLocalizedDtos } from '../../common/locale-selection';
import { orNull, toEditedDto } from '../../common/entry-request';
import type { PicklistDto, PicklistOptionDto } from '../dto/picklist.dto';
import type { StoredPicklist, StoredPicklistOption } from '../domain/picklist.schema';

/**
 * Stored picklist → wire. With a locale, each option carries only the names selected for
 * it (the shared locale rule). Absent optional fields are null so a PATCH can replace them.
 */
export function toPicklistDto(picklist: StoredPicklist, locale?: string): PicklistDto {
  return {
    Id: picklist.picklistId,
    Name: picklist.Name,
    Description: orNull(picklist.Description) as string,
    IsActive: picklist.IsActive !== false,
    FieldSelectOptions: picklist.FieldSelectOptions.map((option) => toOptionDto(option, locale)),
    Edited: toEditedDto(picklist.Edited),
  };
}

function toOptionDto(option: StoredPicklistOption, locale?: string): PicklistOptionDto {
  return {
    Value: option.Value,
    LocalizedNames: toLocalizedDtos(option.LocalizedNames, locale),
    DisplayOrder: orNull(option.DisplayOrder) as number,
    IsActive: option.IsActive !== false,
  };
}

/** Whether the wire picklist has any localised names (after locale selection). */
export function hasLocalizedNames(picklist: PicklistDto): boolean {
  return picklist.FieldSelectOptions.some((option) => option.LocalizedNames.length > 0);
}
