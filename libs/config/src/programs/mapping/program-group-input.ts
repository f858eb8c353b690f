import type { ProgramGroupDto } from '../dto/program-group.dto';
import { toStoredEntryFields } from './program-input';
import type { StoredProgramGroup } from '../domain/program-group.schema';

/** Problems (400) of ids a group body names that the client does not have. */
export function unknownMembers(
  group: ProgramGroupDto,
  path: string,
  programIds: ReadonlySet<number>,
  groupIds: ReadonlySet<number>,
): string[] {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  return [
    ...(group.ProgramIds ?? []).flatMap((id, index) =>
      programIds.has(id)
        ? []
        : [`Invalid ${at('ProgramIds')}[${index}] (value ${id}): no program has this id`],
    ),
    ...(group.ProgramGroupIds ?? []).flatMap((id, index) =>
      groupIds.has(id)
        ? []
        : [
            `Invalid ${at('ProgramGroupIds')}[${index}] (value ${id}): no program group has this id`,
          ],
    ),
  ];
}

/** The group's own stored fields of a validated body. */
export function toStoredGroupFields(
  group: ProgramGroupDto,
): Pick<
  StoredProgramGroup,
  'Name' | 'Description' | 'IsActive' | 'CustomProperties' | 'ProgramIds' | 'ProgramGroupIds'
> {
  return {
    ...toStoredEntryFields(group),
    ProgramIds: [...(group.ProgramIds ?? [])],
    ProgramGroupIds: [...(group.ProgramGroupIds ?? [])],
  };
}
