import { Command } from '@nestjs/cqrs';
import type { CreateDncListDto, DncListDto } from '../../dto/do-not-contact.dto';

export class CreateDncListCommand extends Command<DncListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly body: CreateDncListDto,
  ) {
    super();
  }
}
