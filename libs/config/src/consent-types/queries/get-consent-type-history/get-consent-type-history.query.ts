import { Query } from '@nestjs/cqrs';
import type { ConsentTypeHistoryDto } from '../../dto/consent-type.dto';

export class GetConsentTypeHistoryQuery extends Query<ConsentTypeHistoryDto> {
  constructor(
    readonly clientId: string,
    readonly typeId: number,
  ) {
    super();
  }
}
