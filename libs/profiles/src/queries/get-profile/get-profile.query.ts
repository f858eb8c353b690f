import { Query } from '@nestjs/cqrs';
import type { ProfileDto } from '../../dto/profile.dto';

export class GetProfileQuery extends Query<ProfileDto> {
  constructor(
    readonly clientId: string,
    readonly profileId: number,
  ) {
    super();
  }
}
