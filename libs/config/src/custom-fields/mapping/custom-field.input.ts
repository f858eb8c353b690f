import type { ClassConstructor } from 'class-transformer';
import { textKey } from '@app/shared';
import { orUndefined, type StoredEdited } from '../../common/entry-request';
import type { CustomFieldType } from '../domain/custom-field-value';
import type { DefinitionShape } from '../domain/custom-field-definition.rules';
import { UpdateRule } from '../domain/update-rules';
import { type StoredCustomField } from '../domain/custom-field.schema';
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
  switch (type) {
    case 'Text': {
      const text = dto as TextCustomFieldDto;
      stored.MinLength = orUndefined(text.MinLength);
      stored.MaxLength = orUndefined(text.MaxLength);
      stored.DefaultValue = orUndefined(text.DefaultValue);
      stored.ValidationRegex = orUndefined(text.ValidationRegex);
      stored.FieldMask = orUndefined(text.FieldMask);
      break;
    }
    case 'Numeric': {
      const numeric = dto as NumericCustomFieldDto;
      stored.MinValue = orUndefined(numeric.MinValue);
      stored.MaxValue = orUndefined(numeric.MaxValue);
      stored.DecimalPlaces = orUndefined(numeric.DecimalPlaces);
      stored.DefaultValue = numeric.DefaultValue == null ? undefined : String(numeric.DefaultValue);
      stored.FieldMask = orUndefined(numeric.FieldMask);
      break;
    }
    case 'DateTime': {
      const dateTime = dto as DateTimeCustomFieldDto;
      stored.MinDate = orUndefined(dateTime.MinDate);
      stored.MaxDate = orUndefined(dateTime.MaxDate);
      stored.DefaultValue = orUndefined(dateTime.DefaultValue);
      break;
    }
    case 'SelectList': {
      const select = dto as SelectListCustomFieldDto;
      stored.PicklistId = select.PicklistId;
      stored.DisplayType = select.DisplayType;
      stored.DefaultState = orUndefined(select.DefaultState);
      break;
    }
  }
  return stored;
}
