import type { ClassConstructor } from 'class-transformer';
import { textKey } from '@app/shared';
import { orUndefined, type StoredEdited } from '../../common/entry-request';
import type { CustomFieldType } from '../domain/custom-field-value';
import type { DefinitionShape } from '../domain/custom-field-definition.rules';
import { UpdateRule } from '../domain/update-rules';
import { type StoredCustomField, TYPE_FIELDS, type TypeField } from '../domain/custom-field.schema';
import {
  DateTimeCustomFieldDto,
  NumericCustomFieldDto,
  SelectListCustomFieldDto,
  TextCustomFieldDto,
} from '../dto/custom-field.dto';
import type { AnyCustomFieldDto } from './custom-field.mapper';
import { customFieldKey } from '../../keys';

/** The DTO class that validates a definition of each type. */
export const DTO_CLASS: Record<CustomFieldType, ClassConstructor<AnyCustomFieldDto>> = {
  DateTime: DateTimeCustomFieldDto,
  Numeric: NumericCustomFieldDto,
  SelectList: SelectListCustomFieldDto,
  Text: TextCustomFieldDto,
};

/** A definition of one type as the pure rules see it. */
export function toDefinitionShape(type: CustomFieldType, dto: AnyCustomFieldDto): DefinitionShape {
  return { ...(dto as object), FieldType: type } as DefinitionShape;
}

/** A validated definition → the stored document (name trimmed, absent fields omitted). */
export function toStoredCustomField(
  type: CustomFieldType,
  dto: AnyCustomFieldDto,
  clientId: string,
  fieldId: number,
  revision: number,
  edited: StoredEdited,
): StoredCustomField {
  const name = dto.Name.trim();
  const stored: StoredCustomField = {
    _id: customFieldKey(clientId, fieldId, revision),
    clientId,
    fieldId,
    fieldType: type,
    revision,
    current: true,
    Name: name,
    nameKey: textKey(name),
    LocalizedDisplayNames: dto.LocalizedDisplayNames.map((entry) => ({
      Locale: entry.Locale,
      Name: entry.Name,
      Description: orUndefined(entry.Description),
    })),
    Description: orUndefined(dto.Description),
    UpdateRuleId: dto.UpdateRuleId ?? UpdateRule.Always,
    DisplayOrder: orUndefined(dto.DisplayOrder),
    IsReadOnly: dto.IsReadOnly ?? false,
    IsRequired: dto.IsRequired ?? false,
    IsActive: dto.IsActive ?? true,
    Edited: edited,
  };
  const own = stored as Partial<Record<TypeField, unknown>>;
  const given = dto as Partial<Record<TypeField, unknown>>;
  for (const key of TYPE_FIELDS[type]) own[key] = orUndefined(given[key]);
  // Numeric values are stored as text.
  if (type === 'Numeric' && own.DefaultValue !== undefined) {
    own.DefaultValue = String(own.DefaultValue);
  }
  return stored;
}
