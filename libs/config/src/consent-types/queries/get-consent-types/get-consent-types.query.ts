import { Query } from '@nestjs/cqrs';
import type { ConsentTypeListDto } from '../../dto/consent-type.dto';

export class GetConsentTypesQuery extends Query<ConsentTypeListDto> {
  constructor(
    readonly clientId: string,
    /** 0: all consent types. */
    readonly typeId: number,
    readonly locale: string | undefined,
    readonly latestVersionOnly: boolean,
  ) {
    super();
  }
}
