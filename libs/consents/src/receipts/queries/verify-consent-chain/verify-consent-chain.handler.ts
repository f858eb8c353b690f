import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Caller } from '@app/auth';
import { NotFoundError } from '@app/shared';
import {
  absorbedLinks,
  type ChainedProfileHistory,
  ProfileHistoryChain,
  verifyHistoryChain,
} from '@app/profiles';
import type { AbsorbedChainReport } from '../../domain/absorbed-chain-report';
import type { ConsentChainReportDto } from '../../dto/consent-receipt.dto';
import { toChainReportDto } from '../../mapping/consent-receipt.mapper';
import { VerifyConsentChainQuery } from './verify-consent-chain.query';

/**
 * The profile's chained entries (every one, whatever the caller's user group sees: the
 * answer names entries, never their content) recomputed from the start, and the chain's
 * end compared with the head the profile saved. Then the chain of every profile merged into
 * it (and into those): each merge entry hashed the absorbed profile's head, so that chain,
 * still stored under the absorbed id, must end exactly there (docs/profile-merge.md).
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
    return toChainReportDto(profileId, history.head, report, await this.absorbed(caller, history));
  }

  /** The absorbed profiles' checks, depth first in merge order (each profile once). */
  private async absorbed(
    caller: Caller,
    survivor: ChainedProfileHistory,
    seen = new Set<number>([survivor.profileId]),
  ): Promise<AbsorbedChainReport[]> {
    const reports: AbsorbedChainReport[] = [];
    for (const link of absorbedLinks(survivor)) {
      if (seen.has(link.profileId)) continue;
      seen.add(link.profileId);
      const history = await this.chain.read(caller, link.profileId);
      const report = history
        ? verifyHistoryChain(
            history.entries.map(({ entry }) => entry),
            history.categories,
            link.head,
          )
        : {
            ok: false,
            chained: 0,
            unchained: 0,
            head: null,
            problems: [
              {
                entryId: null,
                reason: 'head-mismatch' as const,
                detail: `profile ${link.profileId} is not stored; the merge entry names its head ${link.head ?? 'null'}`,
              },
            ],
          };
      reports.push({
        profileId: link.profileId,
        absorbedBy: survivor.profileId,
        absorbedHead: link.head,
        report,
      });
      if (history) reports.push(...(await this.absorbed(caller, history, seen)));
    }
    return reports;
  }
}
