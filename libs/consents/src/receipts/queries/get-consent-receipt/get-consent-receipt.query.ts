import { Query } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { ConsentReceipt } from '../../domain/receipt';

/** The signed receipt of one chained history entry (`<seq>.<n>`) of a profile. */
export class GetConsentReceiptQuery extends Query<ConsentReceipt> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
    readonly entry: { seq: number; n: number },
  ) {
    super();
  }
}
