import { Query } from '@nestjs/cqrs';
import type { ProfileUpdateListDto } from './profile-update.dto';

export class GetProfileUpdatesQuery extends Query<ProfileUpdateListDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
