import { Command } from '@nestjs/cqrs';
import type { ConsentTypeDto, ConsentTypeListDto } from '../../dto/consent-type.dto';

export class CreateConsentTypesCommand extends Command<ConsentTypeListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly types: ConsentTypeDto[],
  ) {
    super();
  }
}
