import { Query } from '@nestjs/cqrs';
import type { CallerScope } from '@app/profiles';
import type { ProfileEventsDto } from './profile-event.dto';
import type { ProfileEventsRequest } from './profile-events-window';

/** Events `offset` (from 1) to `offset + limit - 1` of a profile's events matching `request`. */
export class GetProfileEventsQuery extends Query<ProfileEventsDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
    readonly request: ProfileEventsRequest,
    readonly scope: CallerScope | undefined,
    readonly offset: number,
    readonly limit: number,
  ) {
    super();
  }
}
