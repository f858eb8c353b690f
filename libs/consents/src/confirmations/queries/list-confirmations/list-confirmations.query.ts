import { Query } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { ConfirmationListDto } from '../../dto/confirmation.dto';

/** GET /{clientId}/Profile/{profileId}/Confirmations. */
export class ListConfirmationsQuery extends Query<ConfirmationListDto> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
  ) {
    super();
  }
}
