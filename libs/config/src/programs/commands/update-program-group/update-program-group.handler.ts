import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError, parsePatchOperations } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnUpdate, patchedEntry } from '../../../common/entry-request';
import { saveWithRetry } from '../../../common/save-with-retry';
import { findNestingCycle } from '../../domain/program-group-graph';
import { toStoredGroupFields, unknownMembers } from '../../mapping/program-group-input';
import { PROGRAM_GROUP_KIND } from '../../domain/program-group.schema';
import { checkProgramGroupInput } from '../../mapping/program-input';
import { ProgramGroupDto, type ProgramGroupListDto } from '../../dto/program-group.dto';
import { toPatchableProgramGroup } from '../../mapping/patchable';
import { toProgramGroupDto } from '../../mapping/program-group.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { ProgramRepository } from '../../repositories/program.repository';
import { UpdateProgramGroupCommand } from './update-program-group.command';

@CommandHandler(UpdateProgramGroupCommand)
export class UpdateProgramGroupHandler implements ICommandHandler<UpdateProgramGroupCommand> {
  constructor(
    private readonly groups: ProgramGroupRepository,
    private readonly programs: ProgramRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute(command: UpdateProgramGroupCommand): Promise<ProgramGroupListDto> {
    const { clientId, userId, groupId } = command;
    const operations = parsePatchOperations(command.operations);
    const { after } = await saveWithRetry({
      ...this.groups.revisionsOf(clientId, groupId),
      names: this.bookkeeping.nameClaims(
        clientId,
        PROGRAM_GROUP_KIND,
        groupId,
        (name) => `Name "${name}" already belongs to another program group`,
        (id) => this.groups.nameHeldBy(clientId, id),
      ),
      change: async (current) => {
        const body = patchedEntry(
          ProgramGroupDto,
          toPatchableProgramGroup(toProgramGroupDto(current)),
          operations,
        );
        const all = await this.groups.listAll(clientId);
        const programIds = new Set((await this.programs.listAll(clientId)).map((p) => p.programId));
        const problems = [
          ...checkProgramGroupInput(body, ''),
          ...unknownMembers(body, '', programIds, new Set(all.map((group) => group.groupId))),
        ];
        if (problems.length) throw new InvalidInputError(problems.join('; '));
        const next = {
          ...current,
          ...toStoredGroupFields(body),
          Edited: editedOnUpdate(current.Edited, userId, new Date()),
        };
        const edges = new Map(all.map((group) => [group.groupId, group.ProgramGroupIds]));
        edges.set(groupId, next.ProgramGroupIds);
        const cycle = findNestingCycle(edges, groupId);
        if (cycle) {
          throw new InvalidInputError(
            `Invalid ProgramGroupIds (value ${JSON.stringify(next.ProgramGroupIds)}): program groups would contain themselves (${cycle.join(' -> ')})`,
          );
        }
        return next;
      },
    });
    await this.bookkeeping.touch(clientId);
    return { ProgramGroups: [toProgramGroupDto(after)] };
  }
}
