import { textKey } from '@app/shared';
import { orUndefined, type StoredEdited } from '../../common/entry-request';
import type { PicklistDto } from '../dto/picklist.dto';
import { type StoredPicklist } from '../domain/picklist.schema';
import { picklistKey } from '../../keys';

/** A validated picklist body → the stored document (names trimmed, absent fields omitted). */
export function toStoredPicklist(
  dto: PicklistDto,
  clientId: string,
  picklistId: number,
  revision: number,
  edited: StoredEdited,
): StoredPicklist {
  const name = dto.Name.trim();
  return {
    _id: picklistKey(clientId, picklistId, revision),
    clientId,
    picklistId,
    revision,
    current: true,
    Name: name,
    nameKey: textKey(name),
    Description: orUndefined(dto.Description),
    IsActive: dto.IsActive ?? true,
    FieldSelectOptions: dto.FieldSelectOptions.map((option) => ({
      Value: option.Value,
      LocalizedNames: option.LocalizedNames.map((name) => ({
        Locale: name.Locale,
        Name: name.Name,
        Description: orUndefined(name.Description),
      })),
      DisplayOrder: orUndefined(option.DisplayOrder),
      IsActive: option.IsActive ?? true,
    })),
    Edited: edited,
  };
}
