import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { ProfileEventFeed } from '@app/profiles';
import { NotFoundError } from '@app/shared';
import { GetProfileEventsQuery } from './get-profile-events.query';
import type { ProfileEventsDto } from './profile-event.dto';
import { toProfileEventDto } from './profile-event.mapper';

/** Reads the profile's kept events through Profiles' ProfileEventFeed (each by `_id`). */
@QueryHandler(GetProfileEventsQuery)
export class GetProfileEventsHandler implements IQueryHandler<GetProfileEventsQuery> {
  constructor(private readonly feed: ProfileEventFeed) {}

  async execute({
    clientId,
    profileId,
    request,
    scope,
    offset,
    limit,
  }: GetProfileEventsQuery): Promise<ProfileEventsDto> {
    const events = await this.feed.eventsOf(
      clientId,
      profileId,
      { from: request.from, to: request.to },
      scope,
    );
    if (!events) throw new NotFoundError(`Profile ${profileId} was not found`);
    const matching = request.types
      ? events.filter((event) => request.types!.has(event.type))
      : events;
    const page = matching.slice(offset - 1, offset - 1 + limit).map(toProfileEventDto);
    return {
      Count: page.length,
      HasMore: offset - 1 + page.length < matching.length,
      Limit: limit,
      Offset: offset,
      TotalResults: matching.length,
      Events: page,
    };
  }
}
