import { Command } from '@nestjs/cqrs';

export class RemoveDncEntryCommand extends Command<void> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly listId: number,
    readonly value: string,
  ) {
    super();
  }
}
