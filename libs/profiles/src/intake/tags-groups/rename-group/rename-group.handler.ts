import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigurationReader } from '@app/config';
import { InvalidInputError, NotFoundError } from '@app/shared';
import { groupKey } from '../../../domain/element-rules';
import { isActiveMember } from '../../../domain/group-membership';
import type { RenameGroupWrite } from '../../../domain/group-rename';
import type { Profile } from '../../../domain/profile.schema';
import type { RenameGroupResultDto } from '../rename-group.dto';
import { SearchCandidates } from '../../../read/search/search-candidates.service';
import { ProfileWriteIntake } from '../../profile-write-intake.service';
import { RenameGroupCommand } from './rename-group.command';

/** Profiles read per query while walking a group's members. */
const PAGE = 200;

/**
 * Each profile storing the old group (active membership or not, so a later write cannot
 * bring the old name back) gets a queued `rename-group` write: the rename takes its place
 * in each profile's write order and touches nothing else. A membership added by a write
 * accepted after this request is not renamed.
 */
@CommandHandler(RenameGroupCommand)
export class RenameGroupHandler implements ICommandHandler<RenameGroupCommand> {
  constructor(
    private readonly configuration: ConfigurationReader,
    private readonly candidates: SearchCandidates,
    private readonly intake: ProfileWriteIntake,
  ) {}

  async execute(command: RenameGroupCommand): Promise<RenameGroupResultDto> {
    const { clientId, userId, groupType, oldGroupName, newGroupName, allowMerge, window } = command;
    const vocabulary = await this.configuration.vocabulary(clientId);
    if (!vocabulary.type('GroupTypes', groupType)) {
      throw new NotFoundError(
        `Group type ${JSON.stringify(groupType)} is not a group type of this account`,
      );
    }
    const oldKey = groupKey(groupType, oldGroupName);
    const newKey = groupKey(groupType, newGroupName);
    if (oldKey === newKey) {
      throw new InvalidInputError(
        `Invalid NewGroupName (value ${JSON.stringify(newGroupName)}): names the same group as OldGroupName (value ${JSON.stringify(oldGroupName)})`,
      );
    }

    // Ids only are kept: a group may hold any number of profiles.
    const memberIds: number[] = [];
    let exists = false;
    await this.walk(clientId, oldKey, (page) => {
      memberIds.push(...page.map((profile) => profile.profileId));
      exists ||= page.some((profile) => isActiveMember(profile.data, oldKey));
      return false;
    });
    if (!exists) {
      throw new NotFoundError(
        `Group ${JSON.stringify(oldGroupName)} of type ${JSON.stringify(groupType)} has no active member`,
      );
    }
    const targetExists = await this.walk(clientId, newKey, (page) =>
      page.some((profile) => isActiveMember(profile.data, newKey)),
    );
    if (targetExists && !allowMerge) {
      throw new InvalidInputError(
        `Invalid NewGroupName (value ${JSON.stringify(newGroupName)}): group ${JSON.stringify(newGroupName)} of type ${JSON.stringify(groupType)} already exists; AllowMerge must be true to merge group ${JSON.stringify(oldGroupName)} into it`,
      );
    }

    const body: RenameGroupWrite = {
      GroupType: groupType,
      OldGroupName: oldGroupName,
      NewGroupName: newGroupName,
    };
    for (const profileId of memberIds) {
      await this.intake.accept({
        clientId,
        profileId,
        kind: 'rename-group',
        body,
        userId,
        window,
      });
    }
    return {
      GroupType: groupType,
      OldGroupName: oldGroupName,
      NewGroupName: newGroupName,
      ProfilesQueued: memberIds.length,
    };
  }

  /**
   * Walks the profiles of the client (not deleted) storing the group `key` (active or not),
   * page by page in profile id order, until `visit` returns true; answers whether it did.
   */
  private async walk(
    clientId: string,
    key: string,
    visit: (page: Profile[]) => boolean,
  ): Promise<boolean> {
    for (let after = 0; ;) {
      const page = await this.candidates.page(
        clientId,
        [[`group:${key}`]],
        [{ 'data.Groups.Key': key }],
        after,
        PAGE,
        { capped: false },
      );
      if (visit(page)) return true;
      if (page.length < PAGE) return false;
      after = page[page.length - 1].profileId;
    }
  }
}
