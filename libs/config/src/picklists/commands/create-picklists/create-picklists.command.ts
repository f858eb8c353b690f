import { Command } from '@nestjs/cqrs';
import type { PicklistDto, PicklistListDto } from '../../dto/picklist.dto';

export class CreatePicklistsCommand extends Command<PicklistListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly picklists: PicklistDto[],
  ) {
    super();
  }
}
