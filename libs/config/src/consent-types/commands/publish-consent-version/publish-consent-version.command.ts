import { Command } from '@nestjs/cqrs';
import type { ConsentTypeListDto, ConsentVersionDto } from '../../dto/consent-type.dto';

export class PublishConsentVersionCommand extends Command<ConsentTypeListDto> {
  constructor(
    readonly clientId: string,
    readonly userId: string,
    readonly typeId: number,
    readonly version: ConsentVersionDto,
  ) {
    super();
  }
}
