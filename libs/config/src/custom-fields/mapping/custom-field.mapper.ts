import { toLocalizedDtos } from '../../common/locale-selection';
import { orNull, toEditedDto } from '../../common/entry-request';
import type { CustomFieldDefinition, CustomFieldType } from '../domain/custom-field-value';
import { type StoredCustomField, TYPE_FIELDS, type TypeField } from '../domain/custom-field.schema';
import type {
  CustomFieldBaseDto,
  CustomFieldListDto,
  DateTimeCustomFieldDto,
  NumericCustomFieldDto,
  SelectListCustomFieldDto,
  TextCustomFieldDto,
} from '../dto/custom-field.dto';

export type AnyCustomFieldDto =
  TextCustomFieldDto | NumericCustomFieldDto | DateTimeCustomFieldDto | SelectListCustomFieldDto;

/** The list of each type in the wire wrapper. */
export const LIST_KEY: Record<CustomFieldType, keyof CustomFieldListDto> = {
  DateTime: 'DateTimeFields',
  Numeric: 'NumericFields',
  SelectList: 'SelectListFields',
  Text: 'TextFields',
};

/**
 * Stored definition → wire, with exactly the fields of its type. With a locale,
 * LocalizedDisplayNames holds only the names selected for it. Absent optional fields are
 * null so a PATCH can replace them.
 */
export function toCustomFieldDto(field: StoredCustomField, locale?: string): AnyCustomFieldDto {
  const base: CustomFieldBaseDto = {
    Id: field.fieldId,
    Name: field.Name,
    LocalizedDisplayNames: toLocalizedDtos(field.LocalizedDisplayNames, locale),
    Description: orNull(field.Description) as string,
    UpdateRuleId: field.UpdateRuleId,
    DisplayOrder: orNull(field.DisplayOrder) as number,
    IsReadOnly: field.IsReadOnly === true,
    IsRequired: field.IsRequired === true,
    IsActive: field.IsActive !== false,
  };
  const own: Partial<Record<TypeField, unknown>> = {};
  for (const key of TYPE_FIELDS[field.fieldType]) own[key] = orNull(field[key]);
  // Numeric values are stored as text.
  if (field.fieldType === 'Numeric' && own.DefaultValue !== null) {
    own.DefaultValue = Number(own.DefaultValue);
  }
  return { ...base, ...own, Edited: toEditedDto(field.Edited) } as AnyCustomFieldDto;
}

export function emptyCustomFieldList(): CustomFieldListDto {
  return { DateTimeFields: [], NumericFields: [], SelectListFields: [], TextFields: [] };
}

/** Definitions → the four-list wrapper (each list in the given order). */
export function toCustomFieldList(
  fields: StoredCustomField[],
  locale?: string,
): CustomFieldListDto {
  const list = emptyCustomFieldList();
  for (const field of fields) {
    (list[LIST_KEY[field.fieldType]] as AnyCustomFieldDto[]).push(toCustomFieldDto(field, locale));
  }
  return list;
}

/** What a custom field definition exposes to the value checks and the profile validation. */
export interface CustomFieldDefinitionView extends CustomFieldDefinition {
  Id: number;
  IsActive: boolean;
  IsReadOnly: boolean;
  IsRequired: boolean;
  UpdateRuleId: number;
  DefaultValue: string | null;
  PicklistId: number | null;
}

export function toDefinitionView(field: StoredCustomField): CustomFieldDefinitionView {
  return {
    FieldType: field.fieldType,
    Id: field.fieldId,
    Name: field.Name,
    UpdateRuleId: field.UpdateRuleId,
    IsActive: field.IsActive !== false,
    IsReadOnly: field.IsReadOnly === true,
    IsRequired: field.IsRequired === true,
    MinLength: orNull(field.MinLength),
    MaxLength: orNull(field.MaxLength),
    ValidationRegex: orNull(field.ValidationRegex),
    MinValue: orNull(field.MinValue),
    MaxValue: orNull(field.MaxValue),
    DecimalPlaces: orNull(field.DecimalPlaces),
    MinDate: orNull(field.MinDate),
    MaxDate: orNull(field.MaxDate),
    DisplayType: orNull(field.DisplayType),
    DefaultValue: orNull(field.DefaultValue),
    PicklistId: orNull(field.PicklistId),
  };
}
