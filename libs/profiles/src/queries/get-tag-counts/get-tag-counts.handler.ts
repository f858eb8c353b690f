import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TagCountsDto } from '../../dto/tag-counts.dto';
import { ProfileRepository } from '../../repositories/profile.repository';
import { TagRepository } from '../../repositories/tag.repository';
import { GetTagCountsQuery } from './get-tag-counts.query';

@QueryHandler(GetTagCountsQuery)
export class GetTagCountsHandler implements IQueryHandler<GetTagCountsQuery> {
  constructor(
    private readonly tags: TagRepository,
    private readonly profiles: ProfileRepository,
  ) {}

  async execute({ clientId }: GetTagCountsQuery): Promise<TagCountsDto> {
    const tags = await this.tags.list(clientId);
    const TagCounts = await Promise.all(
      tags.map(async (tag) => ({
        Tag: { Name: tag.Name ?? '', IsActive: true, ProfileTagLink: tag.ProfileTagLink },
        Count: await this.profiles.countWithTag(clientId, tag.Key ?? ''),
      })),
    );
    return { TagCounts };
  }
}
