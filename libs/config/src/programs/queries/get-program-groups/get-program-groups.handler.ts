import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import type { ProgramGroupListDto } from '../../dto/program-group.dto';
import { toProgramGroupDto } from '../../mapping/program-group.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { GetProgramGroupsQuery } from './get-program-groups.query';

@QueryHandler(GetProgramGroupsQuery)
export class GetProgramGroupsHandler implements IQueryHandler<GetProgramGroupsQuery> {
  constructor(private readonly groups: ProgramGroupRepository) {}

  async execute({ clientId, id }: GetProgramGroupsQuery): Promise<ProgramGroupListDto> {
    if (id) {
      const group = await this.groups.findById(clientId, id);
      if (!group) throw new NotFoundError(`Program group ${id} was not found`);
      return { ProgramGroups: [toProgramGroupDto(group)] };
    }
    return { ProgramGroups: (await this.groups.listAll(clientId)).map(toProgramGroupDto) };
  }
}
