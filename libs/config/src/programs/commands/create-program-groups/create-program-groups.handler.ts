import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate, refuseInvalidEntries } from '../../../common/entry-request';
import { toStoredGroupFields, unknownMembers } from '../../mapping/program-group-input';
import {
  PROGRAM_GROUP_KIND,
  programGroupRevisionKey,
  type StoredProgramGroup,
} from '../../domain/program-group.schema';
import { checkProgramGroupInput, namesTaken, repeats } from '../../mapping/program-input';
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
    refuseInvalidEntries('ProgramGroups', groups, (group, path) => [
      ...checkProgramGroupInput(group, path),
      ...unknownMembers(group, path, programIds, groupIds),
    ]);
    const conflicts = [
      ...repeats(groups, 'ProgramGroups', 'Name', (group) => group.Name),
      ...namesTaken(
        groups,
        'ProgramGroups',
        existingGroups,
        (group) => `(program group ${group.groupId})`,
      ),
    ];
    if (conflicts.length) throw new ConflictError(conflicts.join('; '));

    const names = groups.map((group) => group.Name);
    const ids = await this.bookkeeping.claimNewEntries(
      clientId,
      PROGRAM_GROUP_KIND,
      names,
      (index) => `ProgramGroups[${index}].Name "${names[index]}" already exists`,
      (id) => this.groups.nameHeldBy(clientId, id),
    );
    const edited = editedOnCreate(userId, new Date());
    const stored: StoredProgramGroup[] = groups.map((group, index) => ({
      _id: programGroupRevisionKey(clientId, ids[index], 0),
      clientId,
      groupId: ids[index],
      revision: 0,
      current: true,
      ...toStoredGroupFields(group),
      Edited: edited,
    }));
    try {
      await this.groups.insertAll(stored);
    } catch (error) {
      await this.groups.removeUnanswered(clientId, ids);
      await this.bookkeeping.releaseNames(clientId, PROGRAM_GROUP_KIND, names, ids);
      throw error;
    }
    await this.bookkeeping.touch(clientId);
    return { ProgramGroups: stored.map(toProgramGroupDto) };
  }
}
