import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ProfileKeyIndex } from '../../search-index/profile-key-index.service';
import { RebuildSearchKeyIndexCommand } from './rebuild-search-key-index.command';

/** The search key index is derived data: rebuilt when lost (ProfileKeyIndex.ensureBuilt). */
@CommandHandler(RebuildSearchKeyIndexCommand)
export class RebuildSearchKeyIndexHandler implements ICommandHandler<RebuildSearchKeyIndexCommand> {
  constructor(private readonly keyIndex: ProfileKeyIndex) {}

  async execute(): Promise<void> {
    await this.keyIndex.ensureBuilt();
  }
}
