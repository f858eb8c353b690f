import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { dncKey } from '../../domain/dnc-value';
import { DncRepository } from '../../dnc.repository';
import { RemoveDncEntryCommand } from './remove-dnc-entry.command';

/** Takes a value off a list; the worker then archives the preferences its listing caused. */
@CommandHandler(RemoveDncEntryCommand)
export class RemoveDncEntryHandler implements ICommandHandler<RemoveDncEntryCommand> {
  constructor(private readonly repository: DncRepository) {}

  async execute({ clientId, userId, listId, value }: RemoveDncEntryCommand): Promise<void> {
    const list = await this.repository.findList(clientId, listId);
    if (!list) throw new NotFoundError(`Do-not-contact list ${listId} was not found`);
    const key = dncKey(list.ListType, value);
    if (key === null || !(await this.repository.unlist(clientId, listId, key, userId, new Date())))
      throw new NotFoundError(`${JSON.stringify(value)} is not on do-not-contact list ${listId}`);
  }
}
