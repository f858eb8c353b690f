import { Query } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { StandardReceipt, StandardReceiptFormat } from '../../domain/standard-receipt';

/** A consent entry (`<seq>.<n>`) of a profile as a signed Kantara receipt or ISO 27560 record. */
export class GetStandardReceiptQuery extends Query<StandardReceipt> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
    readonly entry: { seq: number; n: number },
    readonly format: StandardReceiptFormat,
  ) {
    super();
  }
}
