import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { ProgramGroupListDto } from '../../dto/program-group.dto';
import { toProgramGroupDto } from '../../mapping/program-group.mapper';
import { ProgramGroupRepository } from '../../repositories/program-group.repository';
import { GetProgramGroupsQuery } from './get-program-groups.query';

@QueryHandler(GetProgramGroupsQuery)
export class GetProgramGroupsHandler implements IQueryHandler<GetProgramGroupsQuery> {
  constructor(private readonly groups: ProgramGroupRepository) {}

  async execute({ clientId, id }: GetProgramGroupsQuery): Promise<ProgramGroupListDto> {
    const stored = await this.groups.listOrOne(clientId, id);
    return { ProgramGroups: stored.map(toProgramGroupDto) };
  }
}
