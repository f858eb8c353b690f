import { Command } from '@nestjs/cqrs';
import type { AddDncEntriesDto, AddDncEntriesResultDto } from '../../dto/do-not-contact.dto';

export class AddDncEntriesCommand extends Command<AddDncEntriesResultDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly listId: number,
    readonly body: AddDncEntriesDto,
  ) {
    super();
  }
}
