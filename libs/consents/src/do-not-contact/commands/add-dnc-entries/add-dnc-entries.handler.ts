import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { InvalidInputError, NotFoundError } from '@app/shared';
import { dncKey } from '../../domain/dnc-value';
import type { AddDncEntriesResultDto } from '../../dto/do-not-contact.dto';
import { DncRepository } from '../../dnc.repository';
import { AddDncEntriesCommand } from './add-dnc-entries.command';

/**
 * Puts values on a list. All values are checked first (one bad value refuses the whole
 * request, nothing stored); each new entry is then stored with its propagation pending,
 * which the worker's do-not-contact job applies to every profile holding the value.
 */
@CommandHandler(AddDncEntriesCommand)
export class AddDncEntriesHandler implements ICommandHandler<AddDncEntriesCommand> {
  constructor(private readonly repository: DncRepository) {}

  async execute(command: AddDncEntriesCommand): Promise<AddDncEntriesResultDto> {
    const { clientId, userId, listId, body } = command;
    const list = await this.repository.findList(clientId, listId);
    if (!list) throw new NotFoundError(`Do-not-contact list ${listId} was not found`);
    const keys = body.Entries.map((entry, index) => {
      const key = dncKey(list.ListType, entry.Value);
      if (key === null) {
        throw new InvalidInputError(
          `Entries[${index}].Value (value ${JSON.stringify(entry.Value)}) is not ${list.ListType === 'Email' ? 'an email address' : 'a phone number of 1 to 15 digits'}`,
        );
      }
      return key;
    });
    const result = { Added: 0, Unchanged: 0 };
    const at = new Date();
    for (const [index, entry] of body.Entries.entries()) {
      const outcome = await this.repository.list({
        clientId,
        listId,
        ListType: list.ListType,
        Value: entry.Value.trim(),
        key: keys[index],
        ReasonCode: entry.Reason_Code,
        changedBy: userId,
        at,
      });
      if (outcome === 'added') result.Added++;
      else result.Unchanged++;
    }
    return result;
  }
}
