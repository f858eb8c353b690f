import type { DncEntry, DncList } from './domain/dnc-list.schema';
import type { DncEntryDto, DncListDto } from './dto/do-not-contact.dto';

export function toDncListDto(list: DncList): DncListDto {
  return {
    ListId: list.listId,
    Name: list.Name,
    ...(list.Description ? { Description: list.Description } : {}),
    ListType: list.ListType,
    CreateDate: list.createdAt.toISOString(),
    CreatedBy: list.createdBy,
  };
}

export function toDncEntryDto(entry: DncEntry): DncEntryDto {
  return {
    Value: entry.Value,
    Status: entry.state === 'listed' ? 'Listed' : 'Removed',
    ...(entry.ReasonCode ? { Reason_Code: entry.ReasonCode } : {}),
    ModifiedDate: entry.changedAt.toISOString(),
    ModifiedBy: entry.changedBy,
    Propagation: entry.propagatedAt ? 'Complete' : 'Pending',
  };
}
