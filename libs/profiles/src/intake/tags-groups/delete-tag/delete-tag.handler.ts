import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError, textKey } from '@app/shared';
import { SearchCandidates } from '../../../read/search/search-candidates.service';
import { hasTag } from '../../../read/search/search-keys';
import { TagRepository } from '../../../persistence/tag.repository';
import { ProfileWriteIntake } from '../../profile-write-intake.service';
import { DeleteTagCommand } from './delete-tag.command';

/**
 * Each profile carrying the tag (active or not) gets a queued `remove-tag` write, so the
 * removal takes its place in the profile's write order and touches nothing else; the
 * tag leaves the account last, so a retry after a crash finds the profiles left over.
 */
@CommandHandler(DeleteTagCommand)
export class DeleteTagHandler implements ICommandHandler<DeleteTagCommand> {
  constructor(
    private readonly tags: TagRepository,
    private readonly candidates: SearchCandidates,
    private readonly intake: ProfileWriteIntake,
  ) {}

  async execute({ clientId, userId, tagName, window }: DeleteTagCommand): Promise<void> {
    const key = textKey(tagName);
    const tag = await this.tags.findByKey(clientId, key);
    if (!tag) throw new NotFoundError(`Tag ${JSON.stringify(tagName)} was not found`);
    const holders = await this.candidates.all(
      clientId,
      [[`tag:${key}`]],
      [{ 'data.ProfileTags.Key': key }],
    );
    for (const profile of holders.filter((p) => hasTag(p.data, key))) {
      await this.intake.accept({
        clientId,
        profileId: profile.profileId,
        kind: 'remove-tag',
        body: { Key: key },
        userId,
        window,
      });
    }
    await this.tags.remove(clientId, key);
  }
}
