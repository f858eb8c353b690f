import { Command } from '@nestjs/cqrs';
import type { ProfileDto, ProfileSubmissionResultDto } from '../../dto/profile.dto';

export class CreateProfileCommand extends Command<ProfileSubmissionResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: ProfileDto,
  ) {
    super();
  }
}
