import { Query } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import type { ConsentChainReportDto } from '../../dto/consent-receipt.dto';

/** Recomputes a profile's consent and preference hash chain as stored. */
export class VerifyConsentChainQuery extends Query<ConsentChainReportDto> {
  constructor(
    readonly caller: Caller,
    readonly profileId: number,
  ) {
    super();
  }
}
