import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate, refuseInvalidEntries } from '../../../common/entry-request';
import type { PicklistListDto } from '../../dto/picklist.dto';
import { toStoredPicklist } from '../../mapping/picklist.input';
import { toPicklistDto } from '../../mapping/picklist.mapper';
import { PicklistRepository } from '../../repositories/picklist.repository';
import { picklistProblems } from '../../domain/picklist.rules';
import { CreatePicklistsCommand } from './create-picklists.command';

/** Creates every picklist of the body or none: all rules and names are checked first. */
@CommandHandler(CreatePicklistsCommand)
export class CreatePicklistsHandler implements ICommandHandler<CreatePicklistsCommand> {
  constructor(
    private readonly repository: PicklistRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({ clientId, userId, picklists }: CreatePicklistsCommand): Promise<PicklistListDto> {
    refuseInvalidEntries('Picklists', picklists, picklistProblems);

    const names = picklists.map((picklist) => picklist.Name.trim());
    const ids = await this.bookkeeping.claimUniqueNames(clientId, names, this.repository);
    const edited = editedOnCreate(userId, new Date());
    const created = picklists.map((picklist, index) =>
      toStoredPicklist(picklist, clientId, ids[index], 1, edited),
    );
    await this.repository.insertAll(created);
    await this.bookkeeping.touch(clientId);
    return { Picklists: created.map((picklist) => toPicklistDto(picklist)) };
  }
}
