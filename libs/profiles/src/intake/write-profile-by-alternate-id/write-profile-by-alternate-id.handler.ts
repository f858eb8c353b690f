import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { ProfileSubmissionResultDto } from '../../wire/profile.dto';
import { ProfileUpserts } from '../profile-upserts.service';
import { WriteProfileByAlternateIdCommand } from './write-profile-by-alternate-id.command';

/**
 * POST (upsert) and PUT (overwrite) by alternate id: the holder of the pair is written, or
 * for an upsert a profile is created with it (ProfileUpserts.byAlternateId).
 */
@CommandHandler(WriteProfileByAlternateIdCommand)
export class WriteProfileByAlternateIdHandler implements ICommandHandler<WriteProfileByAlternateIdCommand> {
  constructor(private readonly upserts: ProfileUpserts) {}

  async execute(command: WriteProfileByAlternateIdCommand): Promise<ProfileSubmissionResultDto> {
    const { created: _created, ...result } = await this.upserts.byAlternateId(
      command,
      command.pair,
      command.mode,
    );
    return result;
  }
}
