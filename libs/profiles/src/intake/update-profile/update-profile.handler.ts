import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { ProfileSubmissionResultDto } from '../../wire/profile.dto';
import { ProfileUpserts } from '../profile-upserts.service';
import { UpdateProfileCommand } from './update-profile.command';

/** POST and PUT by profile id: accepted as every whole-body write is (ProfileUpserts). */
@CommandHandler(UpdateProfileCommand)
export class UpdateProfileHandler implements ICommandHandler<UpdateProfileCommand> {
  constructor(private readonly upserts: ProfileUpserts) {}

  execute(command: UpdateProfileCommand): Promise<ProfileSubmissionResultDto> {
    const { profileId, mode } = command;
    return this.upserts.update(command, profileId, mode);
  }
}
