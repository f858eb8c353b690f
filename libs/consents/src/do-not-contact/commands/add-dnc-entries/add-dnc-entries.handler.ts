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
/** Entries stored at once (bounded: each holds engine and Redis connections). */
const ENTRIES_AT_ONCE = 16;

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
    // A value given twice is stored once: its later occurrences are unchanged, as they
    // were when the entries were stored one after another.
    const firstOf = new Map<string, number>();
    keys.forEach((key, index) => firstOf.has(key) || firstOf.set(key, index));
    result.Unchanged += keys.length - firstOf.size;
    // Distinct entries are separate documents: stored some at a time instead of one after
    // another, so a request of 1,000 entries answers in a fraction of the time (each entry
    // is a few engine round trips).
    const indexes = [...firstOf.values()];
    for (let start = 0; start < indexes.length; start += ENTRIES_AT_ONCE) {
      const outcomes = await Promise.all(
        indexes.slice(start, start + ENTRIES_AT_ONCE).map((index) =>
          this.repository.list({
            clientId,
            listId,
            ListType: list.ListType,
            Value: body.Entries[index].Value.trim(),
            key: keys[index],
            ReasonCode: body.Entries[index].Reason_Code,
            changedBy: userId,
            at,
          }),
        ),
      );
      for (const outcome of outcomes) {
        if (outcome === 'added') result.Added++;
        else result.Unchanged++;
      }
    }
    return result;
  }
}
