import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { ProfileRules } from '../../domain/profile-rules';
import {
  PrepareImportedProfilesCommand,
  type PreparedImportedProfiles,
} from './create-imported-profiles.command';
import { buildAhead } from './imported-profile';

/**
 * Builds a bulk import's next batch of new profiles while the batch before is saved (the
 * worker's import fast path, docs/bulk.md "Execute"): the checks and the fold of each
 * record at the batch's instant, nothing stored. CreateImportedProfilesHandler takes the
 * result for the same records under the same ids.
 */
@CommandHandler(PrepareImportedProfilesCommand)
export class PrepareImportedProfilesHandler implements ICommandHandler<PrepareImportedProfilesCommand> {
  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly rules: ProfileRules,
  ) {}

  async execute({
    clientId,
    userId,
    scope,
    profiles,
    now,
  }: PrepareImportedProfilesCommand): Promise<PreparedImportedProfiles> {
    const vocabulary = await this.configuration.vocabulary(clientId);
    return buildAhead({ clientId, userId, scope, vocabulary, now }, profiles, this.rules);
  }
}
