import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { NotFoundError } from '@app/shared';
import { ProfileHistoryChain } from '@app/profiles';
import type { ConsentReceiptEntriesDto } from '../../dto/consent-receipt.dto';
import { toReceiptEntryDto } from '../../mapping/consent-receipt.mapper';
import { ListConsentReceiptsQuery } from './list-consent-receipts.query';

/** The chained entries the caller's user group may see, oldest first. */
@QueryHandler(ListConsentReceiptsQuery)
export class ListConsentReceiptsHandler implements IQueryHandler<ListConsentReceiptsQuery> {
  constructor(private readonly chain: ProfileHistoryChain) {}

  async execute({
    caller,
    profileId,
  }: ListConsentReceiptsQuery): Promise<ConsentReceiptEntriesDto> {
    const history = await this.chain.read(caller, profileId);
    if (!history) throw new NotFoundError(`Profile ${profileId} was not found`);
    return {
      ProfileId: profileId,
      Entries: history.entries
        .filter(({ entry, visible }) => visible && typeof entry.hash === 'string')
        .map(({ entry }) => toReceiptEntryDto(entry)),
    };
  }
}
