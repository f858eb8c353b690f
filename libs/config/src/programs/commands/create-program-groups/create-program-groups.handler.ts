import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ApiError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.service';
import { toStoredGroupFields, unknownMembers } from '../../domain/program-group-input';
import {
  PROGRAM_GROUP_KIND,
  programGroupRevisionKey,
  type StoredProgramGroup,
} from '../../domain/program-group.schema';
import { checkProgramGroupInput, nameKey, repeats } from '../../domain/program-input';
import type { ProgramGroupListDto } from '../../dto/program-group.dto';
import { toProgramGroupDto } from '../../mapping/program-group.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { ProgramRepository } from '../../repositories/program.repository';
import { CreateProgramGroupsCommand } from './create-program-groups.command';

@CommandHandler(CreateProgramGroupsCommand)
export class CreateProgramGroupsHandler implements ICommandHandler<CreateProgramGroupsCommand> {
  constructor(
    private readonly groups: ProgramGroupRepository,
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({
    clientId,
    userId,
    groups,
  }: CreateProgramGroupsCommand): Promise<ProgramGroupListDto> {
    const existingGroups = await this.groups.listAll(clientId);
    const programIds = new Set((await this.programs.listAll(clientId)).map((p) => p.programId));
    const groupIds = new Set(existingGroups.map((group) => group.groupId));
    const problems = groups.flatMap((group, index) => [
      ...checkProgramGroupInput(group, `ProgramGroups[${index}]`),
      ...unknownMembers(group, `ProgramGroups[${index}]`, programIds, groupIds),
    ]);
    if (problems.length) throw ApiError.badRequest(problems.join('; '));
    const byName = new Map(existingGroups.map((group) => [nameKey(group.Name), group]));
    const conflicts = [
      ...repeats(groups, 'ProgramGroups', 'Name', (group) => group.Name),
      ...groups.flatMap((group, index) => {
        const holder = byName.get(nameKey(group.Name));
        return holder
          ? [
              `ProgramGroups[${index}].Name "${group.Name}" already exists (program group ${holder.groupId})`,
            ]
          : [];
      }),
    ];
    if (conflicts.length) throw ApiError.conflict(conflicts.join('; '));

    const ids: number[] = [];
    for (const [index, group] of groups.entries()) {
      const id = await this.bookkeeping.nextId(clientId, PROGRAM_GROUP_KIND);
      if (!(await this.bookkeeping.claimName(clientId, PROGRAM_GROUP_KIND, group.Name, id))) {
        for (const [done, claimedId] of ids.entries()) {
          await this.bookkeeping.releaseName(
            clientId,
            PROGRAM_GROUP_KIND,
            groups[done].Name,
            claimedId,
          );
        }
        throw ApiError.conflict(`ProgramGroups[${index}].Name "${group.Name}" already exists`);
      }
      ids.push(id);
    }
    const now = new Date().toISOString();
    const stored: StoredProgramGroup[] = groups.map((group, index) => ({
      _id: programGroupRevisionKey(clientId, ids[index], 0),
      clientId,
      groupId: ids[index],
      revision: 0,
      current: true,
      ...toStoredGroupFields(group),
      Edited: { CreateDate: now, CreatedBy: userId, ModifiedDate: now, ModifiedBy: userId },
    }));
    try {
      await this.groups.insertAll(stored);
    } catch (error) {
      await this.groups.removeUnanswered(clientId, ids);
      for (const [index, id] of ids.entries()) {
        await this.bookkeeping.releaseName(clientId, PROGRAM_GROUP_KIND, groups[index].Name, id);
      }
      throw error;
    }
    await this.bookkeeping.touch(clientId);
    return { ProgramGroups: stored.map(toProgramGroupDto) };
  }
}
