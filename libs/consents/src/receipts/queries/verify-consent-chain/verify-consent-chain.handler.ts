import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { ProfileHistoryChain, verifyHistoryChain } from '@app/profiles';
import type { ConsentChainReportDto } from '../../dto/consent-receipt.dto';
import { toChainReportDto } from '../../mapping/consent-receipt.mapper';
import { VerifyConsentChainQuery } from './verify-consent-chain.query';

/**
 * The profile's chained entries (every one, whatever the caller's user group sees: the
 * answer names entries, never their content) recomputed from the start, and the chain's
 * end compared with the head the profile saved.
 */
@QueryHandler(VerifyConsentChainQuery)
export class VerifyConsentChainHandler implements IQueryHandler<VerifyConsentChainQuery> {
  constructor(private readonly chain: ProfileHistoryChain) {}

  async execute({ caller, profileId }: VerifyConsentChainQuery): Promise<ConsentChainReportDto> {
    const history = await this.chain.read(caller, profileId);
    if (!history) throw new NotFoundError(`Profile ${profileId} was not found`);
    const report = verifyHistoryChain(
      history.entries.map(({ entry }) => entry),
      history.categories,
      history.head,
    );
    return toChainReportDto(profileId, history.head, report);
  }
}
