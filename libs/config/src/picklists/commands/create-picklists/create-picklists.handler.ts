import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError, InvalidInputError, textKey } from '@app/shared';
import { ConfigBookkeeping } from '../../../common/config-bookkeeping.repository';
import { editedOnCreate, repeatedNames } from '../../../common/entry-request';
import type { PicklistListDto } from '../../dto/picklist.dto';
import { toStoredPicklist } from '../../mapping/picklist.input';
import { toPicklistDto } from '../../mapping/picklist.mapper';
import { PicklistRepository } from '../../repositories/picklist.repository';
import { picklistProblems } from '../../domain/picklist.rules';
import { PICKLIST_KIND } from '../../domain/picklist.schema';
import { CreatePicklistsCommand } from './create-picklists.command';

/** Creates every picklist of the body or none: all rules and names are checked first. */
@CommandHandler(CreatePicklistsCommand)
export class CreatePicklistsHandler implements ICommandHandler<CreatePicklistsCommand> {
  constructor(
    private readonly repository: PicklistRepository,
    private readonly bookkeeping: ConfigBookkeeping,
  ) {}

  async execute({ clientId, userId, picklists }: CreatePicklistsCommand): Promise<PicklistListDto> {
    const problems = picklists.flatMap((picklist, index) =>
      picklistProblems(picklist, `Picklists[${index}]`),
    );
    if (problems.length) throw new InvalidInputError(problems.join('; '));

    const names = picklists.map((picklist) => picklist.Name.trim());
    const repeated = repeatedNames(names);
    if (repeated.length) {
      throw new ConflictError(`Picklist name "${repeated[0]}" is given more than once in the body`);
    }
    const existing = await this.repository.existingNames(clientId, names.map(textKey));
    if (existing.length) throw new ConflictError(`Picklist "${existing[0]}" already exists`);

    const ids = await this.bookkeeping.claimNewEntries(
      clientId,
      PICKLIST_KIND,
      names,
      (index) => `Picklist "${names[index]}" already exists`,
      (id) => this.repository.findOne(clientId, id).then((entry) => entry?.Name ?? null),
    );
    const edited = editedOnCreate(userId, new Date());
    const created = picklists.map((picklist, index) =>
      toStoredPicklist(picklist, clientId, ids[index], 1, edited),
    );
    await this.repository.insertAll(created);
    await this.bookkeeping.touch(clientId);
    return { Picklists: created.map((picklist) => toPicklistDto(picklist)) };
  }
}
