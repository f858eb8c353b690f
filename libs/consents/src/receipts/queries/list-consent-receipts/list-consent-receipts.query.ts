import { Query } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { ConsentReceiptEntriesDto } from '../../dto/consent-receipt.dto';

/** The entries of a profile's chain the caller may ask a receipt for. */
export class ListConsentReceiptsQuery extends Query<ConsentReceiptEntriesDto> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
  ) {
    super();
  }
}
