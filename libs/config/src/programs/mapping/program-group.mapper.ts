import type { StoredProgramGroup } from '../domain/program-group.schema';
import type { ProgramGroupDto, ProgramGroupTreeDto } from '../dto/program-group.dto';
import type { ProgramDto } from '../dto/program.dto';
import { toEditedDto } from '../../common/entry-request';
import { toKeyValueDtos } from './program.mapper';

/* Stored program group → wire: every returned field is listed here. */

/** The fields a group has in both shapes (its members aside). */
function ownFields(group: StoredProgramGroup) {
  return {
    Id: group.groupId,
    Name: group.Name,
    Description: group.Description,
    IsActive: group.IsActive !== false,
    CustomProperties: toKeyValueDtos(group.CustomProperties),
  };
}

export function toProgramGroupDto(group: StoredProgramGroup): ProgramGroupDto {
  return {
    ...ownFields(group),
    ProgramIds: [...(group.ProgramIds ?? [])],
    ProgramGroupIds: [...(group.ProgramGroupIds ?? [])],
    Edited: toEditedDto(group.Edited),
  };
}

export function toProgramGroupTreeDto(
  group: StoredProgramGroup,
  nested: ProgramGroupTreeDto[],
  programs: ProgramDto[],
): ProgramGroupTreeDto {
  return {
    ...ownFields(group),
    ProgramGroups: nested,
    Programs: programs,
    Edited: toEditedDto(group.Edited),
  };
}
