import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { TagCountsDto } from '../tag-counts.dto';
import { SearchCandidates } from '../../../read/search/search-candidates.service';
import { hasTag } from '../../../read/search/search-keys';
import { TagRepository } from '../../../persistence/tag.repository';
import { GetTagCountsQuery } from './get-tag-counts.query';

@QueryHandler(GetTagCountsQuery)
export class GetTagCountsHandler implements IQueryHandler<GetTagCountsQuery> {
  constructor(
    private readonly tags: TagRepository,
    private readonly candidates: SearchCandidates,
  ) {}

  async execute({ clientId }: GetTagCountsQuery): Promise<TagCountsDto> {
    const tags = await this.tags.list(clientId);
    const TagCounts = await Promise.all(
      tags.map(async (tag) => ({
        Tag: { Name: tag.Name ?? '', IsActive: true, ProfileTagLink: tag.ProfileTagLink },
        Count: await this.count(clientId, tag.Key ?? ''),
      })),
    );
    return { TagCounts };
  }

  /** Profiles of the client (not deleted) carrying the tag, each checked (the index is a superset). */
  private async count(clientId: string, key: string): Promise<number> {
    const holders = await this.candidates.all(
      clientId,
      [[`tag:${key}`]],
      [{ 'data.ProfileTags.Key': key }],
    );
    return holders.filter((profile) => hasTag(profile.data, key)).length;
  }
}
